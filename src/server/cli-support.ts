import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, loadConfig, type Config } from './config.js';
import { DataDirInUseError } from './db/data-dir-lock.js';
import { PRIVATE_UMASK } from './db/private-files.js';
import { configureImageMemory } from './memory/image-memory.js';
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

/** A command line that opens the site (its database, its images): what `runCli` runs. */
export interface Cli<Options> {
  /** Reads the command's arguments (`process.argv` after the script); a bad one throws, a `UsageError` or `parseArgs`' own. */
  parse(argv: string[]): Options;
  /** The command itself, given its settings; answers the exit code. */
  run(options: Options, config: Config): Promise<number>;
  /** Errors it expects besides bad arguments and settings: their message alone is printed. */
  expected?: readonly ErrorClass[];
}

/**
 * Runs a command and exits with the code it returns (PGlite's runtime sets an exit code of its
 * own when it closes, so the code is given to `exit`, not left in `process.exitCode`). In order:
 *
 * 1. what it writes is its user's alone (exports and backups hold drafts, e-mails, sessions);
 * 2. its arguments are read: a mistake stops it here, having touched nothing (not even made `DATA_DIR`);
 * 3. the settings are read, and the process restarts with the V8 flags and malloc settings the
 *    memory budget calls for (`memory/budget-restart.ts`, as `main.ts` does for the server), and
 *    sizes sharp's caches from the same budget; the command opens the database with
 *    `openSiteDatabase`, which gives PGlite the budget's share.
 *
 * An error the command expects (bad arguments or settings, `DATA_DIR` in use, one of `expected`)
 * prints its message alone; anything else its stack too. Either way the exit code is 1.
 */
export function runCli<Options>(cli: Cli<Options>): void {
  const known = (err: unknown) =>
    [UsageError, ConfigError, DataDirInUseError, ...(cli.expected ?? [])].some((type) => err instanceof type) ||
    String((err as { code?: unknown } | null)?.code ?? '').startsWith('ERR_PARSE_ARGS');
  const fail = (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    if (!known(err) && err instanceof Error && err.stack) console.error(err.stack);
    process.exit(1);
  };
  process.umask(PRIVATE_UMASK);
  let options: Options;
  let config: Config;
  try {
    options = cli.parse(process.argv.slice(2));
    config = loadConfig();
  } catch (err) {
    return fail(err);
  }
  const { memory } = config;
  restartWithBudget(memory);
  // Images are made in this process (import, images:backfill), one at a time on a small machine.
  configureImageMemory({ cacheBytes: memory.sharpCacheBytes, concurrency: memory.sharpConcurrency, jobs: memory.imageJobs, inChildProcess: false });
  cli.run(options, config).then((code) => process.exit(code), fail);
}
