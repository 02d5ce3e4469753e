import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openGhostReader } from './ghost-reader.js';
import type { ImportArchive } from './import-archive.js';
import type { ReadItem } from './imported-post.js';
import { openWxrReader } from './wxr-reader.js';

/**
 * An archive of one file that can only be streamed, never read whole, and whose stream, from its
 * `gatedFrom`-th opening on, gives its first part and then waits until `release()`: a reader that
 * hands a post on before the rest of the file is read streams (`restRead`: the gated stream's rest was read).
 */
function gatedArchive(name: string, first: string, rest: string, gatedFrom: number) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let opened = 0;
  let restRead = false;
  const archive: ImportArchive = {
    label: name,
    names: [name],
    has: (each) => each === name,
    open: async () => {
      opened += 1;
      const gated = opened >= gatedFrom;
      return Readable.from(
        (async function* () {
          yield Buffer.from(first);
          if (gated) {
            await gate;
            restRead = true;
          }
          yield Buffer.from(rest);
        })(),
      );
    },
    read: () => Promise.reject(new Error('read whole')),
    close: () => undefined,
  };
  return { archive, release, restRead: () => restRead };
}

/** The first item, taken while the rest of the file waits; then the others once it is released. */
async function firstThenRest(posts: AsyncIterable<ReadItem>, gated: ReturnType<typeof gatedArchive>) {
  const iterator = posts[Symbol.asyncIterator]();
  const first = await iterator.next();
  const restReadBeforeFirst = gated.restRead();
  gated.release();
  const others: ReadItem[] = [];
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) others.push(next.value);
  return { first: first.value as ReadItem, restReadBeforeFirst, others };
}

const titleOf = (item: ReadItem) => ('post' in item ? item.post.title : undefined);

describe('the readers stream: a post is handed on before the rest of the file is read', () => {
  it('Ghost JSON (after a first pass for the tables that follow the posts)', async () => {
    const post = (n: number) => JSON.stringify({ id: `p${n}`, title: `Post ${n}`, html: `<p>Text ${n}</p>`, type: 'post', status: 'published' });
    const first = `{"db":[{"meta":{"version":"5.0.0"},"data":{"posts":[${post(1)},`;
    const rest = `${post(2)},${post(3)}],"posts_authors":[{"post_id":"p1","author_id":"u"},{"post_id":"p2","author_id":"u"},{"post_id":"p3","author_id":"u"}],"users":[{"id":"u","email":"u@example.com"}]}}]}`;
    const gated = gatedArchive('export.json', first, rest, 2);
    const reader = await openGhostReader(gated.archive, 'export.json');
    try {
      const { first: item, restReadBeforeFirst, others } = await firstThenRest(reader.posts(), gated);
      expect(titleOf(item)).toBe('Post 1');
      expect(restReadBeforeFirst).toBe(false);
      expect(others.map(titleOf)).toEqual(['Post 2', 'Post 3']);
    } finally {
      await reader.close?.();
    }
  });

  it('WordPress WXR', async () => {
    const item = (n: number) =>
      `<item><title>Post ${n}</title><dc:creator>ada</dc:creator><content:encoded><![CDATA[<p>Text ${n}</p>]]></content:encoded><wp:post_id>${n}</wp:post_id><wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>\n`;
    const first = `<?xml version="1.0"?>\n<rss><channel><link>https://x.example</link><wp:author><wp:author_login>ada</wp:author_login><wp:author_email>ada@example.com</wp:author_email></wp:author>\n${item(1)}`;
    const rest = `${item(2)}${item(3)}</channel></rss>\n`;
    const gated = gatedArchive('export.xml', first, rest, 1);
    const { first: read, restReadBeforeFirst, others } = await firstThenRest(openWxrReader(gated.archive, 'export.xml').posts(), gated);
    expect(titleOf(read)).toBe('Post 1');
    expect(restReadBeforeFirst).toBe(false);
    expect(others.map(titleOf)).toEqual(['Post 2', 'Post 3']);
  });
});
