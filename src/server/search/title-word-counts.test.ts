import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as titleWordCounts from '../db/migrations/2026-11-23-11-title-word-counts.js';
import type { Database } from '../db/schema.js';
import { blogWrites } from '../testing/blog-writes.js';
import { functionCallsInTransaction } from '../testing/query-plans.js';
import { CONCURRENT_WORDS, concurrentWordOrder, recountPublicBlogsPer } from '../testing/recount.js';
import { postBlog } from '../testing/test-blogs.js';
import { useTestApp } from '../testing/test-app.js';
import { signUpUser, type TestUser, uniqueEmail, useSignedUpUsers } from '../testing/test-users.js';

const MODERATOR_EMAIL = uniqueEmail('moderator');

async function kept(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db.selectFrom('title_word_counts').select(['lexeme', 'blogs']).execute();
  return Object.fromEntries(rows.map((row) => [row.lexeme, row.blogs]));
}

describe('title_word_counts: the number of public blogs per title word, kept exact on every write', () => {
  // Many writes from few users: the limits are not what these tests are about.
  const t = useTestApp({ MODERATOR_EMAILS: MODERATOR_EMAIL, RATE_LIMIT_SCALE: '100' });
  const { moderator, author, reader } = useSignedUpUsers(t, ['moderator', 'author', 'reader'], { moderator: { email: MODERATOR_EMAIL } });

  const expectExact = async (label: string) => {
    const [fresh, table] = await Promise.all([recountPublicBlogsPer(t.database.db, 'title_tsv'), kept(t.database.db)]);
    expect(table, label).toEqual(fresh);
    return table;
  };
  const countOf = async (lexeme: string) =>
    (await t.database.db.selectFrom('title_word_counts').select('blogs').where('lexeme', '=', lexeme).executeTakeFirst())?.blogs ?? 0;

  const { create, edit, remove, moderate, signInAgain, vote, deleteAccount } = blogWrites(t, moderator);

  it('follows create, title edits, delete, drafts, hiding, suspension and account deletion', async () => {
    await expectExact('at the start');
    const first = await postBlog(t.app, author, { title: 'Quokka sightings in spring', blog: 'Seen.' });
    expect(await countOf('quokka')).toBe(1);
    const second = await create(reader, { title: 'Quokkas and wombats' });
    expect(await countOf('quokka')).toBe(2);
    expect(await countOf('wombat')).toBe(1);
    await expectExact('after creates');

    // A draft is not public: it counts only once published, and stops counting when unpublished.
    const draft = await create(author, { title: 'Quokka draft notes', status: 'draft' });
    expect(await countOf('quokka')).toBe(2);
    expect(await countOf('note')).toBe(0);
    await edit(author, draft.id, { title: 'Quokka draft notes', status: 'published' });
    expect(await countOf('quokka')).toBe(3);
    expect(await countOf('note')).toBe(1);
    await edit(author, draft.id, { title: 'Quokka draft notes', status: 'draft' });
    expect(await countOf('quokka')).toBe(2);
    await expectExact('after draft → published → draft');

    // A title edit: a word removed, a word added, a word kept.
    await edit(author, first.id, { title: 'Wombat sightings in autumn' });
    expect(await countOf('quokka')).toBe(1);
    expect(await countOf('wombat')).toBe(2);
    expect(await countOf('autumn')).toBe(1);
    expect(await countOf('spring')).toBe(0);
    // Same lexemes, other words ('sighting' for 'sightings'): nothing moves.
    await edit(author, first.id, { title: 'Wombat sighting in autumn!' });
    expect(await countOf('wombat')).toBe(2);
    await expectExact('after title edits');

    // Hidden by a moderator, then restored.
    await moderate({ action: 'hide', targetType: 'blog', targetId: second.id, reason: 'Testing.' });
    expect(await countOf('quokka')).toBe(0);
    expect(await countOf('wombat')).toBe(1);
    await expectExact('after hide');
    await moderate({ action: 'restore', targetType: 'blog', targetId: second.id, reason: 'Testing.' });
    expect(await countOf('quokka')).toBe(1);
    await expectExact('after restore');

    // The author suspended (all their blogs leave), then unsuspended.
    await create(author, { title: 'Wombat burrows' });
    expect(await countOf('wombat')).toBe(3);
    await moderate({ action: 'suspend', userId: author.id, reason: 'Testing.' });
    expect(await countOf('wombat')).toBe(1);
    await expectExact('after suspend');
    await moderate({ action: 'unsuspend', userId: author.id, reason: 'Testing.' });
    await signInAgain(author);
    expect(await countOf('wombat')).toBe(3);
    await expectExact('after unsuspend');

    // A hidden blog stays out when its author is unsuspended, and a title edit while hidden moves nothing.
    await moderate({ action: 'hide', targetType: 'blog', targetId: second.id, reason: 'Testing.' });
    await edit(reader, second.id, { title: 'Platypus' });
    expect(await countOf('platypus')).toBe(0);
    await moderate({ action: 'restore', targetType: 'blog', targetId: second.id, reason: 'Testing.' });
    expect(await countOf('platypus')).toBe(1);
    await expectExact('after an edit while hidden');

    await remove(author, first.id);
    expect(await countOf('autumn')).toBe(0);
    await expectExact('after delete');

    // Account deletion cascades to every blog of the account in one statement.
    const leaving = await signUpUser(t.app);
    await Promise.all(['Echidna one', 'Echidna two', 'Echidna wombat'].map((title) => create(leaving, { title })));
    expect(await countOf('echidna')).toBe(3);
    await deleteAccount(leaving);
    expect(await countOf('echidna')).toBe(0);
    await expectExact('after account deletion');
  });

  it('counts many blogs inserted in one statement, and their deletion in one statement', async () => {
    const before = await countOf('lyrebird');
    const rows = Array.from({ length: 500 }, (_, i) => ({
      user_id: reader.id,
      title: `Lyrebird song ${i % 7 === 0 ? 'mimicry' : 'call'} ${i}`,
      body: 'Bulk.',
      status: i % 10 === 0 ? ('draft' as const) : ('published' as const),
    }));
    const ids = await t.database.db.insertInto('blogs').values(rows).returning('id').execute();
    expect(await countOf('lyrebird')).toBe(before + 450);
    expect(await countOf('mimicri')).toBe(rows.filter((row, i) => i % 7 === 0 && row.status === 'published').length);
    await expectExact('after a bulk insert');
    await t.database.db
      .deleteFrom('blogs')
      .where('id', 'in', ids.slice(0, 250).map(({ id }) => id))
      .execute();
    expect(await countOf('lyrebird')).toBe(before + 225);
    await expectExact('after a bulk delete');
    // The rest go too. Left behind, they were the reader's: each suspension of the reader in the
    // random mix below then queued an event per blog (hundreds), and the app's queue ran them.
    await t.database.db
      .deleteFrom('blogs')
      .where('id', 'in', ids.slice(250).map(({ id }) => id))
      .execute();
    expect(await countOf('lyrebird')).toBe(before);
    await expectExact('after deleting the rest');
  });

  it('is not touched by a vote: the update trigger does not even fire', async () => {
    const blog = await create(author, { title: 'Numbat facts' });
    const rowVersion = () =>
      t.database.db
        .selectFrom('title_word_counts')
        .select([sql<string>`xmin::text`.as('xmin'), 'blogs'])
        .where('lexeme', '=', 'numbat')
        .executeTakeFirstOrThrow();
    const before = await rowVersion();
    await vote(reader, blog.id, 'up');
    await vote(reader, blog.id, 'down');
    expect(await rowVersion()).toEqual(before);

    // Counted by Postgres itself: the vote trigger's update of the counts calls no function of
    // this table; a title edit in the same transaction calls the update trigger once.
    const calls = await t.database.db.transaction().execute(async (trx) => {
      await sql`set local track_functions = 'pl'`.execute(trx);
      // Calls of the row trigger's and the statement trigger's functions in this transaction.
      const onUpdate = () => functionCallsInTransaction(trx, ['title_word_counts_on_update', 'title_word_counts_after_update']);
      await trx.insertInto('votes').values({ blog_id: blog.id, user_id: moderator.id, direction: 'up' }).execute();
      await trx.updateTable('blogs').set({ updated_at: new Date() }).where('id', '=', blog.id).execute();
      const afterVote = await onUpdate();
      const counts = await trx.selectFrom('blogs').select('upvotes').where('id', '=', blog.id).executeTakeFirstOrThrow();
      await trx.updateTable('blogs').set({ title: 'Numbat myths' }).where('id', '=', blog.id).execute();
      return { afterVote, upvotes: counts.upvotes, afterTitle: await onUpdate() };
    });
    expect(calls).toEqual({ afterVote: [0, 0], upvotes: 1, afterTitle: [1, 1] });
    await expectExact('after votes');
  });

  it('ends exact after concurrent creates with the same words (no deadlock)', async () => {
    const writers = await Promise.all(Array.from({ length: 4 }, () => signUpUser(t.app)));
    const words = CONCURRENT_WORDS;
    // The same words in different orders, so a writer taking them in title order would cross another.
    await Promise.all(Array.from({ length: 20 }, (_, i) => create(writers[i % writers.length]!, { title: `${concurrentWordOrder(i).join(' ')} ${i}` })));
    // Multi-row statements in their own transactions, at the same time.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.database.db.transaction().execute((trx) =>
          trx
            .insertInto('blogs')
            .values(Array.from({ length: 5 }, (__, j) => ({ user_id: writers[(i + j) % writers.length]!.id, title: words[(i + j) % words.length]!, body: 'x' })))
            .execute(),
        ),
      ),
    );
    for (const word of words) expect(await countOf(word), word).toBe(20 + 10);
    await expectExact('after concurrent creates');
  });

  // 120 writes through the API, five recounts and a rebuild: seconds on a quiet machine, more on a
  // loaded one, so it has more than the default 30 s.
  it('matches a full recount after a random mix of writes, and the migration rebuilds it from scratch', { timeout: 120_000 }, async () => {
    const users = [author, reader, ...(await Promise.all(Array.from({ length: 3 }, () => signUpUser(t.app))))];
    const vocabulary = ['ibis', 'ibises', 'heron', 'crane', 'the', 'running', 'runs', 'stork', 'kiwi', 'café', '2024', 'moa'];
    // Seeded, so a failure can be replayed.
    let seed = 20261123;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const title = () => Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(vocabulary)).join(' ');
    const mine: { id: string; user: TestUser }[] = [];
    const suspended = new Set<string>();

    for (let step = 0; step < 120; step++) {
      const roll = random();
      const target = mine.length > 0 ? pick(mine) : undefined;
      if (roll < 0.3 || !target) {
        const user = pick(users);
        if (suspended.has(user.id)) continue;
        const blog = await create(user, { title: title(), status: random() < 0.2 ? 'draft' : 'published' });
        mine.push({ id: blog.id, user });
      } else if (roll < 0.5) {
        if (suspended.has(target.user.id)) continue;
        await edit(target.user, target.id, { title: title(), ...(random() < 0.5 ? { status: pick(['draft', 'published'] as const) } : {}) });
      } else if (roll < 0.6) {
        if (suspended.has(target.user.id)) continue;
        await remove(target.user, target.id);
        mine.splice(mine.indexOf(target), 1);
      } else if (roll < 0.75) {
        await moderate({ action: pick(['hide', 'restore'] as const), targetType: 'blog', targetId: target.id, reason: 'Mix.' });
      } else if (roll < 0.85) {
        const user = pick(users);
        const action = suspended.has(user.id) ? 'unsuspend' : 'suspend';
        await moderate({ action, userId: user.id, reason: 'Mix.' });
        if (action === 'suspend') suspended.add(user.id);
        else {
          suspended.delete(user.id);
          await signInAgain(user);
        }
      } else {
        await vote(moderator, target.id, pick(['up', 'down'] as const)).catch(() => undefined);
      }
      if (step % 30 === 29) await expectExact(`after step ${step}`);
    }
    const table = await expectExact('after the mix');
    expect(Object.keys(table).length).toBeGreaterThan(5);
    expect(Object.values(table).every((blogs) => blogs > 0)).toBe(true);
    // Every statement took its own notes of changed titles.
    expect(await t.database.db.selectFrom('title_word_count_changes').selectAll().execute()).toEqual([]);

    // Down drops it all; up backfills the same numbers from the blogs as they are.
    await titleWordCounts.down(t.database.db);
    const leftovers = await sql<{ name: string }>`
      select tgname as name from pg_trigger where tgname like 'title_word_count%'
      union all select proname from pg_proc where proname like 'title_word_count%'
      union all select relname from pg_class where relname like 'title_word_count%'`.execute(t.database.db);
    expect(leftovers.rows).toEqual([]);
    await titleWordCounts.up(t.database.db);
    expect(await kept(t.database.db)).toEqual(table);
    await expectExact('after down and up');
  });
});
