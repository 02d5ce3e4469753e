import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { executePrepared } from './prepared.js';

// Runs in the `postgres` Vitest project only (see vitest.config.ts), where TEST_DATABASE_URL is set.
describe('prepared statements on Postgres', () => {
  it('sends marked statements as named prepared statements, parsed once per connection, and others unnamed', async () => {
    const database = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL!, dataDir: mkdtempSync(path.join(os.tmpdir(), 'prepared-')) });
    try {
      // One transaction: one connection, whose prepared statements the view lists.
      const { answers, statements } = await database.db.transaction().execute(async (trx) => {
        const answers = [];
        for (const n of [1, 2, 3]) answers.push(...(await executePrepared(trx, sql<{ doubled: number }>`select ${n}::int * 2 as doubled`)));
        await sql`select ${4}::int * 3 as tripled`.execute(trx);
        const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(trx);
        return { answers, statements: rows };
      });
      expect(answers).toEqual([{ doubled: 2 }, { doubled: 4 }, { doubled: 6 }]);
      expect(statements).toHaveLength(1);
      expect(statements[0]!.name).toMatch(/^p_[0-9a-f]{24}$/);
      expect(statements[0]!.statement).toContain('* 2 as doubled');
    } finally {
      await database.close();
    }
  });
});
