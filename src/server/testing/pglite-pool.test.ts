// test-plan: PGlite only
import type { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { takePGlite } from './pglite-pool.js';

/** Every row of every table outside Postgres' own, as `table: count`. */
async function rowCounts(pglite: PGlite): Promise<Record<string, number>> {
  const { rows: tables } = await pglite.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = (await pglite.query<{ n: number }>(`select count(*)::int as n from ${name}`)).rows[0]!.n;
  return counts;
}

const insertJob = `insert into queued_jobs (kind, key) values ('test', 'pool-test') returning id`;

describe('the test apps\' PGlite pool', () => {
  it('gives a used database back as the template left it: rows, identities, statistics, settings', async () => {
    const first = await takePGlite();
    const fresh = await rowCounts(first.pglite);
    const changedAt = async (pglite: PGlite) => (await pglite.query<{ at: string }>('select changed_at::text as at from feeds_changed')).rows[0]!.at;
    const freshChangedAt = await changedAt(first.pglite);
    const firstId = (await first.pglite.query<{ id: string }>(insertJob)).rows[0]!.id;
    await first.pglite.exec(`
      update feeds_changed set changed_at = now() - interval '1 year';
      delete from kysely_migration where name = (select min(name) from kysely_migration);
      analyze queued_jobs;
      set statement_timeout = '1s';
    `);
    await first.giveBack();

    const second = await takePGlite();
    expect(await rowCounts(second.pglite)).toEqual(fresh);
    expect(await changedAt(second.pglite)).toBe(freshChangedAt);
    expect((await second.pglite.query<{ id: string }>(insertJob)).rows[0]!.id).toBe(firstId);
    expect((await second.pglite.query(`select 1 from pg_statistic where starelid = 'queued_jobs'::regclass`)).rows).toEqual([]);
    expect((await second.pglite.query<{ statement_timeout: string }>('show statement_timeout')).rows[0]!.statement_timeout).toBe('0');
    await second.giveBack();
  });

  // Four databases loaded from the template, one after another: about 20 s on a busy CI machine, 70 s once.
  it('keeps no database whose schema a test changed, closed, or left in a transaction', { timeout: 120_000 }, async () => {
    const altered = await takePGlite();
    await altered.pglite.exec('alter table queued_jobs add column extra text');
    await altered.giveBack();
    const afterAlter = await takePGlite();
    expect((await afterAlter.pglite.query(`select 1 from information_schema.columns where table_name = 'queued_jobs' and column_name = 'extra'`)).rows).toEqual([]);
    await afterAlter.pglite.close();
    await afterAlter.giveBack();
    const afterClose = await takePGlite();
    expect(afterClose.pglite.closed).toBe(false);
    await afterClose.pglite.exec(`begin; insert into queued_jobs (kind, key) values ('test', 'left open')`);
    await afterClose.giveBack();
    const afterTransaction = await takePGlite();
    expect(afterTransaction.pglite.isInTransaction()).toBe(false);
    expect((await afterTransaction.pglite.query(`select 1 from queued_jobs`)).rows).toEqual([]);
    await afterTransaction.giveBack();
  });

  it('revokes a given-back handle, so a closed app\'s late query fails instead of writing into the next test', async () => {
    const lent = await takePGlite();
    const late = lent.pglite;
    await lent.giveBack();
    expect(() => late.query('select 1')).toThrow(TypeError);
  });
});
