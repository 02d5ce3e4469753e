import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { selectBlogSummaryRows } from '../blogs/blog-rows.repository.js';
import { blogVisibleTo } from '../blogs/blog-visibility.js';
import type { Database } from '../db/schema.js';

/**
 * Search in the titles and texts of blogs ('Search in text too'), on `blogs.search_tsv` (the title
 * at weight A, the plain text at weight B; migration 2026-11-25-02) and its GIN index.
 *
 * The term goes to `websearch_to_tsquery` as one parameter: quotes make a phrase, `-word` leaves a
 * word out, `or` joins alternatives, and nothing else of the term is syntax (the function never
 * fails on any input). Its 'english' configuration is the one `search_tsv` is built with, so both
 * sides stem alike. The query is written out, not bound once in a CTE, so the planner folds it to
 * a constant and estimates each lexeme's share from the column's statistics.
 */
function textQuery(term: string): RawBuilder<string> {
  return sql<string>`websearch_to_tsquery('english', ${term})`;
}

/** The query's one lexeme, when it is one (`numnode` 1): tsquery's text form reads back as a tsvector. */
function onlyLexeme(query: RawBuilder<string>): RawBuilder<string> {
  return sql<string>`(tsvector_to_array(${query}::text::tsvector))[1]`;
}

/**
 * Whether the query can find anything through the index: not when it has no lexeme (only stop
 * words or punctuation), nor when it is made only of exclusions (`-apple`, `apple or -pear`:
 * `querytree` says 'T', nothing the index can look up), which would read every blog.
 */
function searchable(query: RawBuilder<string>): RawBuilder<boolean> {
  return sql<boolean>`(numnode(${query}) > 0 and querytree(${query}) <> 'T')`;
}

/**
 * Steers this transaction's queries to the GIN index of `search_tsv`: the planner costs matching a
 * tsvector as cheaply as comparing integers, so for a common word it would read and decompress
 * every blog's vector (1.3 s at 100,000 blogs of 1,000 words) where the index answers in tens of
 * milliseconds. `statementTimeoutMs` bounds what one search may cost (a phrase of common words is
 * checked blog by blog); Postgres cancels a statement that runs longer.
 */
export async function prepareTextSearch(trx: Transaction<Database>, statementTimeoutMs: number): Promise<void> {
  await sql`set local enable_seqscan = off`.execute(trx);
  await sql.raw(`set local statement_timeout = ${Math.max(1, Math.floor(statementTimeoutMs))}`).execute(trx);
}

/**
 * How many public blogs match, exactly. A query of one lexeme reads it from `text_word_counts`
 * (one primary-key lookup, kept exact by triggers), where counting a word found in every one of
 * 100,000 blogs through the index takes 25 ms and more; any other query is counted through the
 * index (only the matches' visibility is read, no ranking). Each branch runs only when chosen.
 */
export function countTextMatchesQuery(db: Kysely<Database>, term: string) {
  const query = textQuery(term);
  const kept = db.selectFrom('text_word_counts').select('text_word_counts.blogs').where('text_word_counts.lexeme', '=', onlyLexeme(query));
  const counted = db
    .selectFrom('blogs')
    .select(sql<number>`count(*)::int`.as('total'))
    .where(sql<boolean>`blogs.search_tsv @@ ${query}`)
    .where(blogVisibleTo(null));
  return db.selectNoFrom(
    sql<number>`case when not ${searchable(query)} then 0 when numnode(${query}) = 1 then coalesce((${kept}), 0) else (${counted}) end`.as('total'),
  );
}

/**
 * How many public blogs match with their title alone (the first tier of a large result). One
 * lexeme: `title_word_counts` (a title's lexemes in `title_tsv` are those of its part of
 * `search_tsv`, so the title holding the word is the whole condition); else through the title's index.
 */
export function countTitleMatchesQuery(db: Kysely<Database>, term: string) {
  const query = textQuery(term);
  const kept = db.selectFrom('title_word_counts').select('title_word_counts.blogs').where('title_word_counts.lexeme', '=', onlyLexeme(query));
  const counted = db
    .selectFrom('blogs')
    .select(sql<number>`count(*)::int`.as('total'))
    .where(sql<boolean>`blogs.title_tsv @@ ${query}`)
    .where(sql<boolean>`blogs.search_tsv @@ ${query}`)
    .where(blogVisibleTo(null));
  return db.selectNoFrom(sql<number>`case when numnode(${query}) = 1 then coalesce((${kept}), 0) else (${counted}) end`.as('total'));
}

/**
 * The ids of one page of matches, best first: `ts_rank` over the weighted vector (a word in the
 * title counts 1, in the text 0.4, so a title match ranks above a text-only one), then rating,
 * newest, id. Every match is ranked, so only for results of at most `SEARCH_TEXT_RANK_CAP`.
 */
export function rankedMatchIds(db: Kysely<Database>, options: { term: string; limit: number; offset: number }) {
  const query = textQuery(options.term);
  return db
    .selectFrom('blogs')
    .select('blogs.id')
    .where(sql<boolean>`blogs.search_tsv @@ ${query}`)
    .where(blogVisibleTo(null))
    .orderBy(sql`ts_rank(blogs.search_tsv, ${query})`, 'desc')
    .orderBy('blogs.rating', 'desc')
    .orderBy('blogs.created_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .limit(options.limit)
    .offset(options.offset);
}

/**
 * The ids of one page of one tier of a large result, in the home list's order (rating, newest,
 * id): `title` the blogs whose title matches, `text` the others. The order's index
 * (`blogs_home_order_idx`) yields them sorted, so a word in most blogs costs a few index entries
 * and their vectors, not ranking and sorting all of them; a rarer one is read from the GIN index
 * and sorted, whichever the planner finds cheaper.
 */
export function tierMatchIds(db: Kysely<Database>, options: { term: string; tier: 'title' | 'text'; limit: number; offset: number }) {
  const query = textQuery(options.term);
  const inTitle = sql<boolean>`blogs.title_tsv @@ ${query}`;
  return db
    .selectFrom('blogs')
    .select('blogs.id')
    .where(sql<boolean>`blogs.search_tsv @@ ${query}`)
    .where(options.tier === 'title' ? inTitle : sql<boolean>`not (${inTitle})`)
    .where(blogVisibleTo(null))
    .orderBy('blogs.rating', 'desc')
    .orderBy('blogs.created_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .limit(options.limit)
    .offset(options.offset);
}

/** Start and end of a matched word in a snippet: two control characters the stored text never holds. */
export const MATCH_START = '\u0001';
export const MATCH_END = '\u0002';
/**
 * Stand-ins for `<` and `&` while `ts_headline` reads the text: its parser takes `<div>` or `&amp;`
 * written in prose for markup and leaves them out of the snippet. Control characters too, which
 * the stored text never holds and the parser reads as blanks in every locale (a non-ASCII
 * character is a letter to it in the C locale, and would glue itself to the next word).
 */
export const LESS_THAN_STAND_IN = '\u0003';
export const AMPERSAND_STAND_IN = '\u0004';

/**
 * `ts_headline`'s options: one stretch of 15 to 35 words around the best match (not fragments:
 * several cost ten times more for a common word, and a fragment drops the characters before its
 * first word), short words kept, matches between the two sentinels. It runs on the plain text
 * (`body_text`, or the excerpt of a blog the start-up backfill has not rendered yet), never on
 * HTML, and its output is parsed as text.
 */
const HEADLINE_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_END}, MinWords=15, MaxWords=35, ShortWord=0`;

/** The cards of the given public blogs with the snippet of each, for the page's ids only (`ts_headline` reads the whole text). */
export function selectMatchRows(db: Kysely<Database>, options: { term: string; ids: string[] }) {
  const query = textQuery(options.term);
  const text = sql<string>`translate(coalesce(blogs.body_text, blogs.excerpt, ''), '<&', ${LESS_THAN_STAND_IN + AMPERSAND_STAND_IN})`;
  return selectBlogSummaryRows(db, null)
    .select(sql<string>`ts_headline('english', ${text}, ${query}, ${HEADLINE_OPTIONS})`.as('headline'))
    .where('blogs.id', 'in', options.ids)
    .where(blogVisibleTo(null));
}
