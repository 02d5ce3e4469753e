import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { searchPageSchema } from '../../shared/blog-schema.js';
import * as tagsAndTextSearch from '../db/migrations/2026-11-25-04-tags-and-text-search.js';
import type { Database } from '../db/schema.js';
import { useTestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, uniqueEmail, useSignedUpUsers } from '../testing/test-users.js';
import { blogWrites } from '../testing/blog-writes.js';
import { functionCallsInTransaction } from '../testing/query-plans.js';
import { CONCURRENT_WORDS, concurrentWordOrder, recountPublicBlogsPer } from '../testing/recount.js';

const MODERATOR_EMAIL = uniqueEmail('moderator');

type Counts = Record<string, number>;

/** Every tag, and every lexeme of `search_tsv`, of the public blogs with their numbers of blogs, counted afresh. */
async function recount(db: Kysely<Database>): Promise<{ tags: Counts; words: Counts }> {
  const [tags, words] = await Promise.all([recountPublicBlogsPer(db, 'tags'), recountPublicBlogsPer(db, 'search_tsv')]);
  return { tags, words };
}

async function kept(db: Kysely<Database>): Promise<{ tags: Counts; words: Counts }> {
  const tags = await db.selectFrom('tag_counts').select(['tag', 'blogs']).execute();
  const words = await db.selectFrom('text_word_counts').select(['lexeme', 'blogs']).execute();
  return { tags: Object.fromEntries(tags.map((row) => [row.tag, row.blogs])), words: Object.fromEntries(words.map((row) => [row.lexeme, row.blogs])) };
}

describe('tag_counts and text_word_counts: kept exact on every write', () => {
  const t = useTestApp({ MODERATOR_EMAILS: MODERATOR_EMAIL, RATE_LIMIT_SCALE: '100' });
  const { moderator, author, reader } = useSignedUpUsers(t, ['moderator', 'author', 'reader'], { moderator: { email: MODERATOR_EMAIL } });
  const writes = blogWrites(t, moderator);

  const expectExact = async (label: string) => {
    const [fresh, table] = await Promise.all([recount(t.database.db), kept(t.database.db)]);
    expect(table.tags, `tags ${label}`).toEqual(fresh.tags);
    expect(table.words, `words ${label}`).toEqual(fresh.words);
    return table;
  };
  const countOf = async (table: 'tag_counts' | 'text_word_counts', key: string) => {
    const row =
      table === 'tag_counts'
        ? await t.database.db.selectFrom('tag_counts').select('blogs').where('tag', '=', key).executeTakeFirst()
        : await t.database.db.selectFrom('text_word_counts').select('blogs').where('lexeme', '=', key).executeTakeFirst();
    return row?.blogs ?? 0;
  };

  it('follows creates, edits, drafts, hiding, suspension, deletion and account deletion', async () => {
    await expectExact('at the start');
    const first = await writes.create(author, { title: 'Quokka', blog: 'Quokkas smile.', tags: 'animals, australia' });
    const second = await writes.create(reader, { title: 'Wombat', blog: 'Wombats dig. Quokkas watch.', tags: 'animals' });
    expect(await countOf('tag_counts', 'animals')).toBe(2);
    expect(await countOf('text_word_counts', 'quokka')).toBe(2);
    await expectExact('after creates');

    const draft = await writes.create(author, { title: 'Draft', blog: 'Numbat notes.', tags: 'animals', status: 'draft' });
    expect(await countOf('tag_counts', 'animals')).toBe(2);
    expect(await countOf('text_word_counts', 'numbat')).toBe(0);
    await writes.edit(author, draft.id, { title: 'Draft', blog: 'Numbat notes.', status: 'published' });
    expect(await countOf('tag_counts', 'animals')).toBe(3);
    expect(await countOf('text_word_counts', 'numbat')).toBe(1);
    await writes.edit(author, draft.id, { title: 'Draft', blog: 'Numbat notes.', status: 'draft' });
    expect(await countOf('tag_counts', 'animals')).toBe(2);
    await expectExact('after draft → published → draft');

    // Text and tags edited; an edit without the tags keeps them.
    await writes.edit(author, first.id, { title: 'Quokka', blog: 'Quokkas hop.', tags: 'australia, marsupials' });
    expect(await countOf('tag_counts', 'animals')).toBe(1);
    expect(await countOf('tag_counts', 'marsupials')).toBe(1);
    expect(await countOf('text_word_counts', 'smile')).toBe(0);
    expect(await countOf('text_word_counts', 'hop')).toBe(1);
    await writes.edit(author, first.id, { title: 'Quokka', blog: 'Quokkas hop.' });
    expect(await countOf('tag_counts', 'marsupials')).toBe(1);
    await expectExact('after edits');

    await writes.moderate({ action: 'hide', targetType: 'blog', targetId: second.id, reason: 'Testing.' });
    expect(await countOf('tag_counts', 'animals')).toBe(0);
    expect(await countOf('text_word_counts', 'wombat')).toBe(0);
    await expectExact('after hide');
    await writes.moderate({ action: 'restore', targetType: 'blog', targetId: second.id, reason: 'Testing.' });
    expect(await countOf('tag_counts', 'animals')).toBe(1);
    await expectExact('after restore');

    await writes.moderate({ action: 'suspend', userId: author.id, reason: 'Testing.' });
    expect(await countOf('tag_counts', 'australia')).toBe(0);
    await expectExact('after suspend');
    await writes.moderate({ action: 'unsuspend', userId: author.id, reason: 'Testing.' });
    await writes.signInAgain(author);
    expect(await countOf('tag_counts', 'australia')).toBe(1);
    await expectExact('after unsuspend');

    await writes.remove(author, first.id);
    expect(await countOf('tag_counts', 'australia')).toBe(0);
    await expectExact('after delete');

    const leaving = await signUpUser(t.app);
    await Promise.all(['one', 'two', 'three'].map((n) => writes.create(leaving, { title: `Echidna ${n}`, blog: 'Spines.', tags: 'echidnas' })));
    expect(await countOf('tag_counts', 'echidnas')).toBe(3);
    await writes.deleteAccount(leaving);
    expect(await countOf('tag_counts', 'echidnas')).toBe(0);
    expect(await countOf('text_word_counts', 'spine')).toBe(0);
    await expectExact('after account deletion');
  });

  it('counts many blogs inserted in one statement, and their deletion in one statement', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({
      user_id: reader.id,
      title: `Lyrebird ${i}`,
      body: 'Bulk.',
      body_text: i % 3 === 0 ? 'Mimicry of chainsaws.' : 'Song.',
      tags: i % 2 === 0 ? ['birds', 'bulk'] : ['bulk'],
      status: i % 10 === 0 ? ('draft' as const) : ('published' as const),
    }));
    const ids = await t.database.db.insertInto('blogs').values(rows).returning('id').execute();
    expect(await countOf('tag_counts', 'bulk')).toBe(270);
    expect(await countOf('text_word_counts', 'mimicri')).toBe(rows.filter((row, i) => i % 3 === 0 && row.status === 'published').length);
    await expectExact('after a bulk insert');
    await t.database.db
      .deleteFrom('blogs')
      .where('id', 'in', ids.slice(0, 150).map(({ id }) => id))
      .execute();
    await expectExact('after a bulk delete');
  });

  it('is not touched by a vote: neither update trigger fires', async () => {
    const blog = await writes.create(author, { title: 'Voted', blog: 'Bandicoot.', tags: 'voted' });
    const calls = await t.database.db.transaction().execute(async (trx) => {
      await sql`set local track_functions = 'pl'`.execute(trx);
      // Counted from here: the counters are the backend's until it reports them, and an embedded
      // database that served other tests may still hold calls of theirs.
      const before = await functionCallsInTransaction(trx, ['tag_counts_on_update', 'text_word_counts_on_update']);
      const fired = async () => (await functionCallsInTransaction(trx, ['tag_counts_on_update', 'text_word_counts_on_update'])).map((calls, i) => calls - before[i]!);
      await trx.insertInto('votes').values({ blog_id: blog.id, user_id: moderator.id, direction: 'up' }).execute();
      await trx.updateTable('blogs').set({ updated_at: new Date(), comment_count: 0 }).where('id', '=', blog.id).execute();
      const afterVote = await fired();
      await trx.updateTable('blogs').set({ tags: ['re-voted'] }).where('id', '=', blog.id).execute();
      const afterTags = await fired();
      await trx.updateTable('blogs').set({ body_text: 'Bilby.' }).where('id', '=', blog.id).execute();
      return { afterVote, afterTags, afterText: await fired() };
    });
    expect(calls).toEqual({ afterVote: [0, 0], afterTags: [1, 0], afterText: [1, 1] });
    await expectExact('after votes');
  });

  it('ends exact after concurrent writers sharing tags and words (no deadlock)', async () => {
    const writers = await Promise.all(Array.from({ length: 4 }, () => signUpUser(t.app)));
    await Promise.all(
      Array.from({ length: 16 }, (_, i) => {
        const order = concurrentWordOrder(i);
        return writes.create(writers[i % writers.length]!, { title: `Mix ${i}`, blog: order.join(' '), tags: order.slice(0, 5).join(',') });
      }),
    );
    for (const word of CONCURRENT_WORDS) expect(await countOf('tag_counts', word), word).toBe(16);
    await expectExact('after concurrent creates');
  });

  it('a site made before the migration keeps its blogs: their text is read from the HTML, found by search, counted', async () => {
    const db = t.database.db;
    const before = await kept(db);
    await tagsAndTextSearch.down(db);
    const leftovers = await sql<{ name: string }>`
      select tgname as name from pg_trigger where tgname like 'tag_counts%' or tgname like 'text_word_counts%' or tgname = 'feeds_changed_on_tags'
      union all select proname from pg_proc where proname like 'tag_counts%' or proname like 'text_word_counts%' or proname = 'counted_blog_public'
      union all select relname from pg_class where relname like 'tag_counts%' or relname like 'text_word_counts%'`.execute(db);
    expect(leftovers.rows).toEqual([]);

    // Written by the earlier version: stored HTML (with entities and code), no text column.
    await sql`
      insert into blogs (user_id, title, body, html, excerpt, reading_minutes)
      values (${author.id}, 'Legacy post', 'legacy', ${'<h2>Old</h2><p>Caf&eacute; &amp; pastries &lt;3 &quot;fine&quot; it&#39;s</p><pre><code class="hljs"><span class="hljs-keyword">const</span> platypus = 1</code></pre>'}, 'Old', 1)`.execute(db);
    await tagsAndTextSearch.up(db);

    const row = await db.selectFrom('blogs').select(['body_text', 'tags']).where('title', '=', 'Legacy post').executeTakeFirstOrThrow();
    expect(row.tags).toEqual([]);
    expect(row.body_text).toBe(`Old Caf&eacute; & pastries <3 "fine" it's const platypus = 1`);
    const response = await t.app.inject({ method: 'GET', url: '/api/search?searchTerm=platypus&in=all', remoteAddress: randomIp() });
    const page = searchPageSchema.parse(response.json());
    expect(page.items.map((blog) => blog.title)).toEqual(['Legacy post']);
    expect(page.items[0]!.snippet!.map((part) => part.text).join('')).toContain('pastries <3 "fine"');
    expect(page.items[0]!.tags).toEqual([]);

    // Everything else came back as it was: the text of every earlier blog from its HTML, the counts rebuilt.
    const after = await expectExact('after down and up');
    expect(after.tags).toEqual({});
    expect(Object.keys(after.words).length).toBeGreaterThan(Object.keys(before.words).length / 2);
  });
});
