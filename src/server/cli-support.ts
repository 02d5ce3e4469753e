import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError } from './db/data-dir-lock.js';
import { PRIVATE_UMASK } from './db/private-files.js';
import { restartWithBudget } from './memory/budget-restart.js';

/** Log lines of a CLI (warnings and errors) go to stderr as JSON; stdout is the report. */
export function stderrLogger(level: 'info' | 'warn' = 'warn'): FastifyBaseLogger {
  const levels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
  const write = (name: string) => (first: unknown, message?: string) => {
    if (levels.indexOf(name) < levels.indexOf(level)) return;
    const details = typeof first === 'object' && first !== null ? { ...first } : { msg: String(first) };
    if ('err' in details && details.err instanceof Error) details.err = details.err.message;
    console.error(JSON.stringify({ level: name, time: new Date().toISOString(), ...(message ? { msg: message } : {}), ...details }));
  };
  const logger = Object.fromEntries(levels.map((name) => [name, write(name)])) as unknown as FastifyBaseLogger;
  return Object.assign(logger, { level, silent: () => undefined, child: () => logger });
}

export class UsageError extends Error {}

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * Runs a command's `main` and exits with the code it returns (PGlite's runtime sets an exit code
 * of its own when it closes, so the code is given to `exit`, not left in `process.exitCode`).
 * An error the command expects (bad arguments or settings, `DATA_DIR` in use, one of `expected`)
 * prints its message alone; anything else its stack too. Either way the exit code is 1.
 *
 * First, as the server does (`main.ts`): what the command writes is its user's alone (exports and
 * backups hold drafts, e-mails, sessions), and the process restarts with the V8 flags and malloc
 * settings the memory budget calls for, before it opens the database.
 */
export function runCli(main: () => Promise<number>, expected: readonly ErrorClass[] = []): void {
  const known = (err: unknown) =>
    [UsageError, ConfigError, DataDirInUseError, ...expected].some((type) => err instanceof type) ||
    String((err as { code?: unknown } | null)?.code ?? '').startsWith('ERR_PARSE_ARGS');
  process.umask(PRIVATE_UMASK);
  try {
    restartWithBudget(loadConfig().memory);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    // main() reads the configuration again and says what is wrong with it, after its usage errors.
  }
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      if (!known(err) && err instanceof Error && err.stack) console.error(err.stack);
      process.exit(1);
    },
  );
}
