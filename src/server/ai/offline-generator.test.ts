import { describe, expect, it } from 'vitest';
import { generateOfflineBlog, streamOfflineBlog } from './offline-generator.js';
import { sanitizeBlogHtml } from './sanitize-blog-html.js';

/** A small seeded generator (mulberry32), so each test sees the same "random" blogs. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const count = (html: string, tag: string) => html.match(new RegExp(`<${tag}>`, 'g'))?.length ?? 0;
const titleOf = (html: string) => /<h1>(.*?)<\/h1>/.exec(html)?.[1];

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('generateOfflineBlog', () => {
  it('writes one h1 title and 3 to 5 paragraphs of real sentences', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const html = generateOfflineBlog(seeded(seed));
      expect(html).toMatch(/^<h1>[^<]+<\/h1>(\n<p>[^<]+<\/p>){3,5}$/);
      expect(count(html, 'h1')).toBe(1);
      expect(count(html, 'p')).toBeGreaterThanOrEqual(3);
      expect(count(html, 'p')).toBeLessThanOrEqual(5);
      // Every placeholder is filled and every paragraph ends a sentence.
      expect(html).not.toMatch(/[{}]/);
      for (const paragraph of html.matchAll(/<p>([^<]+)<\/p>/g)) expect(paragraph[1]).toMatch(/^[A-Z].*[.!?]$/);
    }
  });

  it('is already clean: sanitising it changes nothing', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const html = generateOfflineBlog(seeded(seed));
      expect(sanitizeBlogHtml(html)).toBe(html);
    }
  });

  it('writes a different blog for a different seed, and the same for the same seed', () => {
    expect(generateOfflineBlog(seeded(1))).not.toBe(generateOfflineBlog(seeded(2)));
    expect(generateOfflineBlog(seeded(7))).toBe(generateOfflineBlog(seeded(7)));
  });

  it('varies its titles: 20 runs give at least 15 different ones', () => {
    const titles = new Set(Array.from({ length: 20 }, (_, i) => titleOf(generateOfflineBlog(seeded(100 + i)))));
    expect(titles.size).toBeGreaterThanOrEqual(15);
  });

  it('varies with the default random source too', () => {
    const blogs = new Set(Array.from({ length: 20 }, () => generateOfflineBlog()));
    expect(blogs.size).toBe(20);
  });
});

describe('streamOfflineBlog', () => {
  it('streams the same blog in chunks of a few words', async () => {
    const chunks = await collect(streamOfflineBlog(undefined, { random: seeded(3), delayMs: 0 }));
    const html = chunks.join('');
    expect(html).toBe(generateOfflineBlog(seeded(3)));
    expect(chunks.length).toBeGreaterThan(20);
    for (const chunk of chunks) expect(chunk.trim().split(/\s+/).length).toBeLessThanOrEqual(4);
  });

  it('pauses between chunks so the text visibly arrives', async () => {
    const start = Date.now();
    const iterator = streamOfflineBlog(undefined, { random: seeded(4) });
    for (let i = 0; i < 4; i++) await iterator.next();
    await iterator.return(undefined);
    expect(Date.now() - start).toBeGreaterThanOrEqual(3 * 15 - 5);
  });

  it('stops, without an error, once aborted', async () => {
    const controller = new AbortController();
    const chunks: string[] = [];
    for await (const chunk of streamOfflineBlog(controller.signal, { random: seeded(5) })) {
      chunks.push(chunk);
      if (chunks.length === 3) controller.abort();
    }
    expect(chunks).toHaveLength(3);
  });

  it('stops in the middle of a pause when aborted', async () => {
    const start = Date.now();
    const html = (await collect(streamOfflineBlog(AbortSignal.timeout(60), { random: seeded(6) }))).join('');
    expect(Date.now() - start).toBeLessThan(300);
    expect(html.length).toBeGreaterThan(0);
    expect(html.length).toBeLessThan(generateOfflineBlog(seeded(6)).length / 2);
  });

  it('yields nothing when already aborted', async () => {
    expect(await collect(streamOfflineBlog(AbortSignal.abort()))).toEqual([]);
  });
});
