import { ConfigError, loadConfig } from './config.js';
import { PRIVATE_UMASK } from './db/private-files.js';
import { restartWithBudget } from './memory/budget-restart.js';

/**
 * The entry point: reads the config, and only then loads the server, so that a process told it
 * has too little memory says so and exits before loading anything, and one that must restart
 * with other V8 flags does so before it has loaded anything either.
 */
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
  // V8 and glibc read these only at a process's start: the process replaces itself (same pid,
  // nothing kept), so `node dist/server/main.js` under any process manager gets them.
  restartWithBudget(config.memory);
  const { startServer } = await import('./start-server.js');
  await startServer(config);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
