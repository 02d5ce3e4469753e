import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { blogVisibleTo } from '../core/blog-visibility.js';
import { isPublicBlog } from '../core/blog-events.js';
import { useTestApp } from '../testing/test-app.js';
import { useSignedUpUsers } from '../testing/test-users.js';

/**
 * `feeds_changed.changed_at` (migration 2026-11-24-01): moved by the commit of every change a feed
 * or sitemap shows, and by nothing else.
 */
describe('when the feeds last changed', () => {
  const t = useTestApp();
  const { author } = useSignedUpUsers(t, ['author']);

  /** In microseconds, as the database keeps it (two changes can share a millisecond). */
  const changedAt = async () => {
    const { rows } = await sql<{ us: string }>`select (extract(epoch from changed_at) * 1000000)::bigint::text as us from feeds_changed`.execute(t.database.db);
    return Number(rows[0]!.us);
  };

  /** Whether `write` moved the time forward. */
  async function moves(write: () => Promise<unknown>): Promise<boolean> {
    const before = await changedAt();
    await write();
    const after = await changedAt();
    expect(after).toBeGreaterThanOrEqual(before);
    return after > before;
  }

  const insertBlog = (values: { status?: 'draft' | 'published'; title?: string } = {}) =>
    t.database.db
      .insertInto('blogs')
      .values({ user_id: author.id, title: values.title ?? 'A blog', body: 'Text.', status: values.status ?? 'published' })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((row) => row.id);

  it('says "public" exactly as blogVisibleTo(null) and the blogs\' lifecycle (isPublicBlog) do', async () => {
    const ids: string[] = [];
    for (const status of ['draft', 'published'] as const) {
      for (const hidden of [null, new Date()]) {
        for (const suspended of [null, new Date()]) {
          const id = await insertBlog({ status });
          await t.database.db.updateTable('blogs').set({ hidden_at: hidden, author_suspended_at: suspended }).where('id', '=', id).execute();
          ids.push(id);
        }
      }
    }
    const bySql = await t.database.db
      .selectFrom('blogs')
      .select('id')
      .where('id', 'in', ids)
      .where(sql<boolean>`feeds_blog_public(status, hidden_at, author_suspended_at)`)
      .execute();
    const byRule = await t.database.db.selectFrom('blogs').select('id').where('id', 'in', ids).where(blogVisibleTo(null)).execute();
    expect(byRule).toHaveLength(1);
    expect(bySql.map((row) => row.id).sort()).toEqual(byRule.map((row) => row.id).sort());
    // And as the blogs' lifecycle decides it (`core/blog-events.ts`), from the same columns.
    const rows = await t.database.db.selectFrom('blogs').select(['id', 'status', 'hidden_at', 'author_suspended_at']).where('id', 'in', ids).execute();
    expect(rows.filter((row) => isPublicBlog(row)).map((row) => row.id)).toEqual(byRule.map((row) => row.id));
  });

  it('moves with a new public blog, an edit, hiding, restoring, a deletion and an author’s new e-mail', async () => {
    let id = '';
    expect(await moves(async () => (id = await insertBlog()))).toBe(true);
    expect(await moves(() => t.database.db.updateTable('blogs').set({ title: 'Edited', updated_at: new Date() }).where('id', '=', id).execute())).toBe(true);
    expect(await moves(() => t.database.db.updateTable('blogs').set({ hidden_at: new Date() }).where('id', '=', id).execute())).toBe(true);
    expect(await moves(() => t.database.db.updateTable('blogs').set({ hidden_at: null }).where('id', '=', id).execute())).toBe(true);
    expect(await moves(() => t.database.db.updateTable('blogs').set({ status: 'draft' }).where('id', '=', id).execute())).toBe(true);
    expect(await moves(() => t.database.db.updateTable('blogs').set({ status: 'published' }).where('id', '=', id).execute())).toBe(true);
    expect(await moves(() => t.database.db.updateTable('user').set({ email: `renamed-${author.id}@example.com` }).where('id', '=', author.id).execute())).toBe(true);
    expect(await moves(() => t.database.db.deleteFrom('blogs').where('id', '=', id).execute())).toBe(true);
  });

  it('stays for votes, comment counts, drafts and a same-value write', async () => {
    const id = await insertBlog();
    expect(await moves(() => t.database.db.updateTable('blogs').set({ upvotes: 3, downvotes: 1 }).where('id', '=', id).execute())).toBe(false);
    expect(await moves(() => t.database.db.updateTable('blogs').set({ comment_count: 2 }).where('id', '=', id).execute())).toBe(false);
    expect(await moves(() => t.database.db.updateTable('blogs').set({ title: 'A blog' }).where('id', '=', id).execute())).toBe(false);
    let draft = '';
    expect(await moves(async () => (draft = await insertBlog({ status: 'draft' })))).toBe(false);
    expect(await moves(() => t.database.db.updateTable('blogs').set({ body: 'Autosaved.', updated_at: new Date() }).where('id', '=', draft).execute())).toBe(false);
    expect(await moves(() => t.database.db.deleteFrom('blogs').where('id', '=', draft).execute())).toBe(false);
  });

  it('is dated when the change commits, not when its statement ran, and written once for many rows', async () => {
    const ids = await Promise.all([insertBlog(), insertBlog(), insertBlog()]);
    let beforeCommit = 0;
    await t.database.db.transaction().execute(async (trx) => {
      await trx.updateTable('blogs').set({ title: 'Renamed together', updated_at: new Date() }).where('id', 'in', ids).execute();
      // Read after the update's statement ended, in microseconds: a time stamped at the statement
      // (or the transaction's start) is earlier than this, one stamped at the commit is not.
      const { rows } = await sql<{ us: string }>`select (extract(epoch from clock_timestamp()) * 1000000)::bigint::text as us`.execute(trx);
      beforeCommit = Number(rows[0]!.us);
    });
    expect(await changedAt()).toBeGreaterThanOrEqual(beforeCommit);
  });
});
