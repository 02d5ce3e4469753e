/**
 * Import of a WordPress export of 10,000 posts (each with a comment, two categories and a tag)
 * into an empty site on an embedded (PGlite) database on disk: time, and peak heap and RSS beside
 * the size of the file, to show the XML is streamed (the heap stays far below the file's size)
 * rather than read whole. The dry pass (a full read that writes nothing) is measured apart.
 * Run: node --expose-gc --import tsx bench/import.bench.ts [posts]
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { openDatabase } from '../src/server/db/database.js';
import { migrateToLatest } from '../src/server/db/migrate.js';
import { runImport } from '../src/server/portability/import/import.service.js';
import { createLocalImageStorage } from '../src/server/storage/local-storage.js';

const POSTS = Number(process.argv[2] ?? 10_000);
const AUTHORS = 20;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function writeWxr(file: string): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`<?xml version="1.0" encoding="UTF-8" ?>\n<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">\n<channel>\n<title>Bench</title>\n<link>https://bench.example</link>\n`);
  for (let a = 0; a < AUTHORS; a++) {
    await write(`<wp:author><wp:author_login><![CDATA[author${a}]]></wp:author_login><wp:author_email><![CDATA[author${a}@bench.example]]></wp:author_email><wp:author_display_name><![CDATA[Author ${a}]]></wp:author_display_name></wp:author>\n`);
  }
  const paragraph = '<p>Lorem ipsum dolor sit amet, <strong>consectetur</strong> adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. <a href="https://example.org/">A link</a>.</p>\n';
  for (let i = 1; i <= POSTS; i++) {
    const day = new Date(Date.UTC(2015, 0, 1) + i * 3_600_000).toISOString().replace('T', ' ').slice(0, 19);
    await write(
      `<item><title><![CDATA[Post number ${i}]]></title><dc:creator><![CDATA[author${i % AUTHORS}]]></dc:creator>` +
        `<content:encoded><![CDATA[<h2>Part ${i}</h2>\n${paragraph.repeat(8)}<ul><li>one</li><li>two</li></ul>\n[gallery ids="1,2"]]]></content:encoded>` +
        `<wp:post_id>${i}</wp:post_id><wp:post_date_gmt><![CDATA[${day}]]></wp:post_date_gmt><wp:status><![CDATA[${i % 10 === 0 ? 'draft' : 'publish'}]]></wp:status><wp:post_type><![CDATA[post]]></wp:post_type>` +
        `<category domain="category" nicename="c${i % 7}"><![CDATA[Category ${i % 7}]]></category><category domain="category" nicename="news"><![CDATA[News]]></category><category domain="post_tag" nicename="t${i % 50}"><![CDATA[tag ${i % 50}]]></category>` +
        `<wp:comment><wp:comment_id>${i}</wp:comment_id><wp:comment_author><![CDATA[Reader]]></wp:comment_author><wp:comment_author_email><![CDATA[reader${i % 100}@bench.example]]></wp:comment_author_email><wp:comment_date_gmt><![CDATA[${day}]]></wp:comment_date_gmt><wp:comment_content><![CDATA[Nice post ${i}.]]></wp:comment_content><wp:comment_approved><![CDATA[1]]></wp:comment_approved><wp:comment_type><![CDATA[comment]]></wp:comment_type><wp:comment_parent>0</wp:comment_parent></wp:comment>` +
        `</item>\n`,
    );
  }
  await write('</channel>\n</rss>\n');
  out.end();
  await once(out, 'close');
}

async function measure<T>(work: () => Promise<T>) {
  gc();
  const base = process.memoryUsage();
  let heap = base.heapUsed;
  let live = base.heapUsed;
  let rss = base.rss;
  let ticks = 0;
  const sampler = setInterval(() => {
    // Every 50th sample collects first: what the import holds, not the garbage it has yet to free.
    if (++ticks % 50 === 0) {
      gc();
      live = Math.max(live, process.memoryUsage().heapUsed);
    }
    const now = process.memoryUsage();
    heap = Math.max(heap, now.heapUsed);
    rss = Math.max(rss, now.rss);
  }, 5);
  const start = performance.now();
  const result = await work();
  const ms = performance.now() - start;
  clearInterval(sampler);
  return { ms, liveGrowthMb: mb(live - base.heapUsed), peakHeapMb: mb(heap), peakRssMb: mb(rss), result };
}

const silent = { error: () => undefined, warn: () => undefined, info: () => undefined } as unknown as FastifyBaseLogger;

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'import-bench-'));
  try {
    const file = path.join(work, 'export.xml');
    await writeWxr(file);
    const size = statSync(file).size;
    const database = await openDatabase({ dataDir: path.join(work, 'data') });
    await migrateToLatest(database.db);
    const deps = { db: database.db, storage: createLocalImageStorage(path.join(work, 'uploads')), log: silent };
    try {
      const dry = await measure(() => runImport(deps, file, { dryRun: true }));
      const real = await measure(() => runImport(deps, file));
      const again = await measure(() => runImport(deps, file));
      console.log(`WXR file: ${POSTS} posts, ${mb(size)} MB; PGlite on disk; Node ${process.version}`);
      for (const [name, m] of [['dry run (read, check, write nothing)', dry], ['import (dry pass + writes)', real], ['second run (all unchanged)', again]] as const) {
        const r = m.result;
        console.log(
          `${name}: ${(m.ms / 1000).toFixed(1)} s (${Math.round(POSTS / (m.ms / 1000))} posts/s); live heap grew ${m.liveGrowthMb} MB at most (peak heap with garbage ${m.peakHeapMb} MB, peak RSS ${m.peakRssMb} MB); ` +
            `posts ${r.posts.imported} imported / ${r.posts.unchanged} unchanged / ${r.posts.failed} failed, comments ${r.comments.imported}, accounts ${r.accountsCreated.length}`,
        );
      }
    } finally {
      await database.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
