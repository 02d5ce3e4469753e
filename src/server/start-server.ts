import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openSiteDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { configureImageMemory } from './memory/image-memory.js';
import { stopImageWorker } from './images/image-worker-client.js';
import { describeSplit } from './memory/memory-budget.js';
import { answerBackupSignal } from './portability/backup/backup-signal.js';
import { createImageStorage } from './storage/storage.js';

/** Starts the server (`main.ts` has read the config): database, migrations, listen; closes gracefully on SIGTERM/SIGINT. */
export async function startServer(config: Config) {
  const { memory } = config;
  configureImageMemory({ cacheBytes: memory.sharpCacheBytes, concurrency: memory.sharpConcurrency, jobs: memory.imageJobs, inChildProcess: true });
  const database = await openSiteDatabase(config);
  await migrateToLatest(database.db);
  const storage = createImageStorage(config);
  const app = await buildApp({ config, database, storage });
  app.addHook('onClose', async () => {
    // The views counted in memory are written, and background jobs stop after the step in hand,
    // before the database they write to closes (this hook runs before buildApp's own).
    await app.analytics?.stop();
    await app.jobs.stop();
    await app.queue.stop();
    stopImageWorker();
    await database.close();
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // A request still arriving after the grace period (a stalled upload) is cut off; it has
    // written nothing yet, so cutting it rolls it back. Requests already received finish.
    const grace = Math.min(10_000, config.http.requestTimeoutMs);
    setTimeout(() => {
      app.log.warn(`shutdown: closing connections still open after ${grace} ms`);
      app.server.closeAllConnections();
    }, grace).unref();
    const timer = setTimeout(() => {
      app.log.error(`shutdown took over ${grace + 10_000} ms; exiting`);
      process.exit(1);
    }, grace + 10_000);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  // With PGlite no other process may open the database: `npm run backup` asks this one.
  if (database.kind === 'pglite') answerBackupSignal({ config, database, storage, log: app.log });

  // Start-up jobs (the Markdown backfill) finish before any request; the rest run in the background.
  await app.jobs.start();
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Blogging site ready at ${config.publicUrl} (database: ${database.kind}, Node ${process.version}); ${describeSplit(memory)}`);
  if (database.start === 'initdb') {
    app.log.warn('first start without the build\'s empty cluster (`npm run build` makes it): PGlite ran initdb, which holds about 900 MB until restart');
  }
}
