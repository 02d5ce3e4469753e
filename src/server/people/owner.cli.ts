/**
 * `npm run owner -- <e-mail>`: hands the site to the account with this address (issue 44); the
 * previous owner becomes an administrator. Recorded in the audit log with no actor (the command
 * line). Works on PGlite's DATA_DIR (with the server stopped: an embedded database has one process
 * at a time) and on DATABASE_URL (beside running servers: the role's notice ends the accounts'
 * remembered sessions in each of them).
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { Config } from '../config.js';
import { openSiteDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { runCli, UsageError } from '../cli-support.js';
import { NoSuchAccountError, transferOwnership } from '../core/ownership.js';

function parseOptions(argv: string[]): { email: string } {
  const { positionals } = parseArgs({ args: argv, options: {}, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new UsageError('usage: npm run owner -- <e-mail address of the new owner>');
  const parsed = z.email().safeParse(positionals[0]!.trim().toLowerCase());
  if (!parsed.success) throw new UsageError(`not an e-mail address: ${JSON.stringify(positionals[0])}`);
  return { email: parsed.data };
}

export async function handOver(options: { email: string }, config: Pick<Config, 'databaseUrl' | 'dataDir' | 'memory'>): Promise<number> {
  const database = await openSiteDatabase(config);
  try {
    await migrateToLatest(database.db);
    const { changed, previous } = await transferOwnership(database.db, options.email, null);
    console.log(changed ? `${options.email} is now the owner${previous ? `; ${previous} is an administrator` : ''}.` : `${options.email} is already the owner; nothing changed.`);
    return 0;
  } finally {
    await database.close();
  }
}

runCli({ parse: parseOptions, run: handOver, expected: [NoSuchAccountError] });
