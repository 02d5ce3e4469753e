/**
 * The storage sweep over 10,000 stored files of which 1,000 are orphans (250 images with their
 * three variants whose rows never committed), on local disk and an embedded (PGlite) database:
 * time and peak memory, beside two bare baselines measured in the same run (the machine is
 * shared and noisy): reading the folder with `readdir`, and paging through it with the storage's
 * own `list` (names, sizes and times, as the sweep does). Each round plants the orphans again.
 * Run: node --expose-gc --import tsx bench/storage-sweep.bench.ts [rounds]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/server/db/database.js';
import { migrateToLatest } from '../src/server/db/migrate.js';
import { allImageKeys } from '../src/server/images/stored-image.js';
import { createLocalImageStorage } from '../src/server/storage/local-storage.js';
import { IMAGE_KEY_PREFIX, newImageKey } from '../src/server/storage/storage.js';
import { sweepStorage } from '../src/server/storage-sweep/storage-sweep.js';

const rounds = Number(process.argv[2] ?? 3);
const NAMED_IMAGES = 2_250; // x 4 files = 9,000 files rows name
const ORPHAN_IMAGES = 250; // x 4 files = 1,000 orphans
const FILE_BYTES = 2_048;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** Runs `work` and samples the heap and RSS every millisecond the event loop is free. */
async function measure<T>(work: () => Promise<T>): Promise<{ ms: number; heapMb: number; rssMb: number; result: T }> {
  gc();
  const base = process.memoryUsage();
  let heap = base.heapUsed;
  let rss = base.rss;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    heap = Math.max(heap, now.heapUsed);
    rss = Math.max(rss, now.rss);
  }, 1);
  const start = performance.now();
  const result = await work();
  const ms = performance.now() - start;
  clearInterval(sampler);
  const end = process.memoryUsage();
  heap = Math.max(heap, end.heapUsed);
  rss = Math.max(rss, end.rss);
  return { ms, heapMb: (heap - base.heapUsed) / 1024 / 1024, rssMb: (rss - base.rss) / 1024 / 1024, result };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sweep-bench-'));
  const root = path.join(dataDir, 'uploads');
  const storage = createLocalImageStorage(root);
  const database = await openDatabase({ dataDir, inMemory: true });
  const silent = { error: (details: object, message: string) => console.error(message, details) };
  try {
    await migrateToLatest(database.db);
    const now = new Date();
    await database.db.insertInto('user').values({ id: 'bench', name: 'bench', email: 'bench@example.com', emailVerified: true, createdAt: now, updatedAt: now }).execute();
    const bytes = Buffer.alloc(FILE_BYTES, 7);
    const old = new Date(Date.now() - 2 * 3_600_000);
    const write = async (key: string) => {
      await storage.put(key, bytes, 'image/webp');
      await utimes(path.join(root, key), old, old);
    };
    const named = Array.from({ length: NAMED_IMAGES }, (_, i) => newImageKey(`named-${i}.png`, 'bench'));
    for (let i = 0; i < named.length; i += 250) {
      const batch = named.slice(i, i + 250);
      await database.db.insertInto('blogs').values(batch.map((key, j) => ({ user_id: 'bench', title: `Blog ${i + j}`, body: 'x', image_key: key }))).execute();
      await Promise.all(batch.flatMap(allImageKeys).map(write));
    }
    const plantOrphans = () =>
      Promise.all(Array.from({ length: ORPHAN_IMAGES }, (_, i) => newImageKey(`orphan-${i}.png`, 'bench')).flatMap(allImageKeys).map(write));

    console.log(`${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}, Node ${process.version}, PGlite, local disk; ${rounds} rounds`);
    const figures = { readdir: [] as number[], list: [] as number[], sweep: [] as number[], listHeap: [] as number[], sweepHeap: [] as number[], sweepRss: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      await plantOrphans();
      const bare = await measure(async () => (await readdir(path.join(root, 'blogs'))).length);
      const listed = await measure(async () => {
        let count = 0;
        for await (const page of storage.list(IMAGE_KEY_PREFIX)) count += page.length;
        return count;
      });
      const swept = await measure(() => sweepStorage({ db: database.db, storage, log: silent }, { graceMs: 60_000 }));
      if (bare.result !== 10_000 || listed.result !== 10_000 || swept.result.removed !== 1_000 || swept.result.kept !== 9_000) {
        throw new Error(`unexpected counts: readdir ${bare.result}, list ${listed.result}, sweep ${JSON.stringify(swept.result)}`);
      }
      figures.readdir.push(bare.ms);
      figures.list.push(listed.ms);
      figures.sweep.push(swept.ms);
      figures.listHeap.push(listed.heapMb);
      figures.sweepHeap.push(swept.heapMb);
      figures.sweepRss.push(swept.rssMb);
      console.log(
        `round ${round + 1}: readdir ${bare.ms.toFixed(0)} ms; list ${listed.ms.toFixed(0)} ms (heap +${listed.heapMb.toFixed(1)} MB); ` +
          `sweep ${swept.ms.toFixed(0)} ms (heap +${swept.heapMb.toFixed(1)} MB, RSS +${swept.rssMb.toFixed(1)} MB), ` +
          `removed ${swept.result.removed} (${(swept.result.bytesFreed / 1024 / 1024).toFixed(1)} MB), kept ${swept.result.kept}`,
      );
    }
    console.log(
      `median: readdir ${median(figures.readdir).toFixed(0)} ms, list ${median(figures.list).toFixed(0)} ms, sweep ${median(figures.sweep).toFixed(0)} ms ` +
        `(${(median(figures.sweep) / median(figures.list)).toFixed(1)} x the listing); peak heap above the start: list ${median(figures.listHeap).toFixed(1)} MB, ` +
        `sweep ${median(figures.sweepHeap).toFixed(1)} MB; sweep RSS +${median(figures.sweepRss).toFixed(1)} MB`,
    );
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
