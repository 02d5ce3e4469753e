// test-plan: PGlite only (the servers it starts and kills run on an embedded database of their own)
import { describe, expect, it } from 'vitest';
import { addDays } from '../../shared/analytics-schema.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { freePort, migratedDataDir, startServer, waitForHealth } from '../testing/server-process.js';
import { createSignedInUsers } from '../testing/signed-in-users.js';
import { rollUp } from './analytics.repository.js';
import { dayOf } from './analytics.job.js';

const browser = (name: string) => `Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/133.0 ${name}`;

/**
 * Two server processes, one after the other, on one data folder: the first is stopped with
 * SIGTERM (its views are written as it closes), the second is killed with SIGKILL right after a
 * periodic flush and one more view. Only that view, the buffer's window, is lost; a visitor seen
 * by both processes is one visitor, since the day's salt lives in the database they share.
 */
describe('analytics across processes and a kill -9', () => {
  it('a SIGTERM loses nothing, a kill -9 at most the views since the last flush', { timeout: 120_000 }, async () => {
    const dataDir = migratedDataDir('blog-crash-analytics-');
    let blogId: string;
    const setup = await openDatabase({ dataDir });
    try {
      await migrateToLatest(setup.db);
      const [author] = await createSignedInUsers({ db: setup.db, authSecret: 'c'.repeat(64) }, 1);
      blogId = (await setup.db.insertInto('blogs').values({ user_id: author!.id, title: 'Read across a crash', body: 'Words.' }).returning('id').executeTakeFirstOrThrow()).id;
    } finally {
      await setup.close();
    }
    const port = await freePort();
    const env = { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, AUTH_SECRET: 'c'.repeat(64), IMAGE_BACKFILL_ON_START: 'false', LOG_LEVEL: 'info', ANALYTICS_FLUSH_MS: '5000' };
    const read = async (name: string) => {
      const response = await fetch(`http://127.0.0.1:${port}/viewBlog?id=${blogId}`, { headers: { 'user-agent': browser(name) } });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    };

    const first = startServer(env);
    await waitForHealth(port);
    for (const name of ['a', 'b', 'c']) await read(name);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.stdout()).toMatch(/"views":3\b.*"msg":"analytics flushed"/);

    const second = startServer(env);
    await waitForHealth(port);
    await read('a');
    await read('d');
    await second.logged(/"msg":"analytics flushed"/);
    // Within the next window: held in memory when the process dies.
    await read('e');
    second.child.kill('SIGKILL');
    await second.exited;

    const after = await openDatabase({ dataDir });
    try {
      const today = dayOf(new Date());
      await rollUp(after.db, { today, keepFrom: addDays(today, -30) });
      const figures = await after.db.selectFrom('analytics_daily').select(['views', 'visitors']).where('blog_id', '=', blogId!).execute();
      // a, b, c from the first process; a again and d from the second; e lost with the kill. Visitor a is one visitor.
      expect(figures).toEqual([{ views: 5, visitors: 4 }]);
    } finally {
      await after.close();
    }
  });
});
