import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { PRIVATE_UMASK } from './db/private-files.js';
import { migrateToLatest } from './db/migrate.js';
import { createImageStorage } from './storage/storage.js';

/** Starts the server: config, database, migrations, listen; closes gracefully on SIGTERM/SIGINT. */
async function main() {
  // Whatever umask the service manager hands us, what we (and PGlite) write is for our user only.
  process.umask(PRIVATE_UMASK);
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(database.db);
  const storage = createImageStorage(config);
  const app = await buildApp({ config, database, storage });
  app.addHook('onClose', async () => {
    // Background jobs stop after the step in hand, before the database they write to closes.
    await app.jobs.stop();
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

  // Start-up jobs (the Markdown backfill) finish before any request; the rest run in the background.
  await app.jobs.start();
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Blogging site ready at ${config.publicUrl} (database: ${database.kind}, Node ${process.version})`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
