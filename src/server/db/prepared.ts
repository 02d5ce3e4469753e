import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Starts the text of a statement to be sent as a named prepared statement (`executePrepared`). */
export const PREPARED_MARK = '/* prepared */ ';

/**
 * Runs a query as a named prepared statement on Postgres (see `PREPARED_MARK`): for the
 * statements every request runs, whose plan is the same whatever their values. Its text must not
 * vary with the values (an `in` list does: use `= any(array)`). On PGlite it runs as it is.
 */
export async function executePrepared<O>(db: Kysely<Database>, query: { compile(db: Kysely<Database>): CompiledQuery<O> }): Promise<O[]> {
  const compiled = query.compile(db);
  const { rows } = await db.executeQuery<O>({ ...compiled, sql: PREPARED_MARK + compiled.sql });
  return rows;
}
