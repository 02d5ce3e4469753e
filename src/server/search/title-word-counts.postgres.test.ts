import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/schema.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { signUpUser } from '../testing/test-users.js';

// Runs in the `postgres` Vitest project only (see vitest.config.ts): it needs several connections
// writing at once, which PGlite's single connection cannot give.
describe('title_word_counts under concurrent writers (Postgres)', () => {
  let t: TestApp;
  let db: Kysely<Database>;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.database.db;
  });
  afterAll(() => t.close());

  const countOf = async (lexeme: string) =>
    (await db.selectFrom('title_word_counts').select('blogs').where('lexeme', '=', lexeme).executeTakeFirst())?.blogs ?? 0;

  /** Runs `work` on a connection of its own, telling `onPid` that connection's backend first. */
  const onOwnConnection = <T>(onPid: (pid: number) => void, work: (conn: Kysely<Database>) => Promise<T>) =>
    db.connection().execute(async (conn) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(conn);
      onPid(rows[0]!.pid);
      return work(conn);
    });
  const waitingOnALock = async (pid: number) => {
    const { rows } = await sql<{ waiting: boolean }>`
      select coalesce(bool_or(wait_event_type = 'Lock'), false) as waiting from pg_stat_activity where pid = ${pid}`.execute(db);
    return rows[0]!.waiting;
  };
  const until = async (condition: () => Promise<boolean>) => {
    const started = Date.now();
    while (!(await condition())) {
      if (Date.now() - started > 10_000) throw new Error('condition not met within 10 s');
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  it('an update of many blogs (a suspension) takes their words in lexeme order, not blog by blog', async () => {
    const [suspended, other] = await Promise.all([signUpUser(t.app), signUpUser(t.app)]);
    const ids = await db
      .insertInto('blogs')
      .values([1, 2].map((n) => ({ user_id: suspended.id, title: `Placeholder ${n}`, body: 'x' })))
      .returning('id')
      .execute();
    // The order in which the suspension's update meets the two blogs (a trial, rolled back).
    const meetingOrder = () =>
      db
        .transaction()
        .execute(async (trx) => {
          const rows = await trx.updateTable('blogs').set({ author_suspended_at: new Date() }).where('user_id', '=', suspended.id).returning(['id', 'title']).execute();
          throw Object.assign(new Error('roll back'), { rows });
        })
        .catch((error: { rows: { id: string; title: string }[] }) => error.rows);
    const [met, metNext] = await meetingOrder();
    expect([met!.id, metNext!.id].sort()).toEqual(ids.map(({ id }) => id).sort());
    // Titled so that it meets "zebu" first, then "alpaca": against the words' order.
    await db.updateTable('blogs').set({ title: 'Zebu herding' }).where('id', '=', met!.id).execute();
    await db.updateTable('blogs').set({ title: 'Alpaca wool' }).where('id', '=', metNext!.id).execute();
    expect((await meetingOrder()).map(({ title }) => title)).toEqual(['Zebu herding', 'Alpaca wool']);

    // 1. A writer holds "alpaca" (a new blog with it, not yet committed).
    let writerWrote!: () => void;
    const writerHoldsWord = new Promise<void>((resolve) => (writerWrote = resolve));
    let goOn!: () => void;
    const writerMayGoOn = new Promise<void>((resolve) => (goOn = resolve));
    const writer = db.transaction().execute(async (trx) => {
      await trx.insertInto('blogs').values({ user_id: other.id, title: 'Alpaca yarn', body: 'x' }).execute();
      writerWrote();
      await writerMayGoOn;
      // 3. ... then takes "zebu", in the words' order. Had the suspension taken the words blog by
      //    blog, it would hold "zebu" now: each would wait for the other, a deadlock, one fails.
      await trx.insertInto('blogs').values({ user_id: other.id, title: 'Zebu milk', body: 'x' }).execute();
    });
    await writerHoldsWord;

    // 2. The suspension of both blogs, until it waits for the writer.
    let suspensionPid = 0;
    const suspension = onOwnConnection(
      (pid) => (suspensionPid = pid),
      (conn) => conn.updateTable('blogs').set({ author_suspended_at: new Date() }).where('user_id', '=', suspended.id).execute(),
    );
    await until(async () => suspensionPid !== 0 && (await waitingOnALock(suspensionPid)));
    goOn();

    const outcomes = await Promise.allSettled([writer, suspension]);
    expect(outcomes.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : 'ok'))).toEqual(['ok', 'ok']);
    expect(await countOf('zebu')).toBe(1);
    expect(await countOf('alpaca')).toBe(1);
    expect(await countOf('herd')).toBe(0);
  });
});
