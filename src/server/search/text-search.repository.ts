import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { selectBlogSummaryRows } from '../core/blog-rows.repository.js';
import { blogVisibleTo } from '../core/blog-visibility.js';
import type { Database } from '../db/schema.js';

/**
 * Search in the titles and texts of blogs ('Search in text too'), on `blogs.search_tsv` (the title
 * at weight A, the plain text at weight B; migration 2026-11-25-04) and its GIN index.
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
 * checked blog by blog); Postgres cancels a statement that runs longer. One statement for both:
 * every round trip to the database counts at this rate.
 */
export async function prepareTextSearch(trx: Transaction<Database>, statementTimeoutMs: number): Promise<void> {
  const timeout = String(Math.max(1, Math.floor(statementTimeoutMs)));
  await sql`select set_config('enable_seqscan', 'off', true), set_config('statement_timeout', ${timeout}, true)`.execute(trx);
}

/**
 * How many public blogs match, exactly (`total`), and, when there are more than `rankCap`, how
 * many of them with their title alone (`in_titles`, the first tier; else 0), in one statement.
 *
 * A query of one lexeme reads its totals from `text_word_counts` and `title_word_counts` (one
 * primary-key lookup each, kept exact by triggers; a title's lexemes in `title_tsv` are those of
 * its part of `search_tsv`, so the title holding the word is the whole tier condition), where
 * counting a word found in every one of 100,000 blogs through the index takes 25 ms and more. Any
 * other query is counted through the indexes (only the matches' visibility is read, no ranking).
 * Each branch runs only when chosen; `offset 0` keeps the total computed once. With
 * `throughIndex` false, a query of several lexemes is not counted: both totals are null (the
 * caller counts it again in a transaction steered to the indexes).
 */
export function countTextMatchesQuery(db: Kysely<Database>, term: string, rankCap: number, options: { throughIndex: boolean }) {
  const query = textQuery(term);
  const keptText = db.selectFrom('text_word_counts').select('text_word_counts.blogs').where('text_word_counts.lexeme', '=', onlyLexeme(query));
  const countedText = db
    .selectFrom('blogs')
    .select(sql<number>`count(*)::int`.as('total'))
    .where(sql<boolean>`blogs.search_tsv @@ ${query}`)
    .where(blogVisibleTo(null));
  const keptTitles = db.selectFrom('title_word_counts').select('title_word_counts.blogs').where('title_word_counts.lexeme', '=', onlyLexeme(query));
  const countedTitles = countedText.where(sql<boolean>`blogs.title_tsv @@ ${query}`);
  const matched = db
    .selectNoFrom(
      sql<number | null>`case when not ${searchable(query)} then 0 when numnode(${query}) = 1 then coalesce((${keptText}), 0) else ${options.throughIndex ? sql`(${countedText})` : sql`null`} end`.as(
        'total',
      ),
    )
    .offset(0)
    .as('matched');
  return db
    .selectFrom(matched)
    .select([
      'matched.total',
      sql<number | null>`case when matched.total <= ${rankCap} then 0 when numnode(${query}) = 1 then coalesce((${keptTitles}), 0) else ${options.throughIndex ? sql`(${countedTitles})` : sql`null`} end`.as(
        'in_titles',
      ),
    ]);
}

/**
 * The ids of matches, best first: `ts_rank` over the weighted vector (a word in the title counts
 * 1, in the text 0.4, so a title match ranks above a text-only one), then rating, newest, id.
 * Every match is ranked, so only for results of at most `SEARCH_TEXT_RANK_CAP`.
 */
function rankedMatchIds(db: Kysely<Database>, options: { term: string; limit: number; offset: number }) {
  const query = textQuery(options.term);
  const rank = sql<number>`ts_rank(blogs.search_tsv, ${query})`;
  return db
    .selectFrom('blogs')
    .select(['blogs.id', sql<number>`0`.as('part'), rank.as('rank')])
    .where(sql<boolean>`blogs.search_tsv @@ ${query}`)
    .where(blogVisibleTo(null))
    .orderBy(rank, 'desc')
    .orderBy('blogs.rating', 'desc')
    .orderBy('blogs.created_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .limit(options.limit)
    .offset(options.offset);
}

/**
 * The ids of one tier of a large result, in the home list's order (rating, newest, id): `title`
 * the blogs whose title matches, `text` the others. The order's index (`blogs_home_order_idx`)
 * yields them sorted, so a word in most blogs costs a few index entries and their vectors, not
 * ranking and sorting all of them; a rarer one is read from the GIN index and sorted, whichever
 * the planner finds cheaper.
 */
function tierMatchIds(db: Kysely<Database>, options: { term: string; tier: 'title' | 'text'; limit: number; offset: number }) {
  const query = textQuery(options.term);
  const inTitle = sql<boolean>`blogs.title_tsv @@ ${query}`;
  return db
    .selectFrom('blogs')
    .select(['blogs.id', sql<number>`${options.tier === 'title' ? 0 : 1}::int`.as('part'), sql<number>`0::real`.as('rank')])
    // The title's small vector (stored in the row) first: the whole text's (stored apart, compressed) only for the rows that pass.
    .where(options.tier === 'title' ? inTitle : sql<boolean>`not (${inTitle})`)
    .where(sql<boolean>`blogs.search_tsv @@ ${query}`)
    .where(blogVisibleTo(null))
    .orderBy('blogs.rating', 'desc')
    .orderBy('blogs.created_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .limit(options.limit)
    .offset(options.offset);
}

/** Where a page of matches comes from: ranked, or its share of each tier. */
export type MatchPage =
  | { kind: 'ranked'; limit: number; offset: number }
  | { kind: 'tiers'; title?: { limit: number; offset: number }; text?: { limit: number; offset: number } };

/** The page's ids in order, as one subquery (`part`, then `rank`, then the home list's order). */
export function matchPageIds(db: Kysely<Database>, term: string, page: MatchPage) {
  const parts =
    page.kind === 'ranked'
      ? [rankedMatchIds(db, { term, ...page })]
      : [
          ...(page.title ? [tierMatchIds(db, { term, tier: 'title', ...page.title })] : []),
          ...(page.text ? [tierMatchIds(db, { term, tier: 'text', ...page.text })] : []),
        ];
  return sql<{ id: string; part: number; rank: number }>`(${sql.join(parts, sql` union all `)})`.as('page');
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

/** Characters of text `ts_headline` reads at most (about 110 words): it parses all it is given, and a snippet is 35 words. */
const SNIPPET_WINDOW = 700;
/** Of which before the first match, when the match is further into the text than that. */
const SNIPPET_LEAD = 150;

/**
 * The text a snippet is cut from: `body_text` (or the excerpt of a blog the start-up backfill has
 * not rendered yet), only `SNIPPET_WINDOW` characters of it starting a little before the first
 * place the query's first lexeme appears (lexemes are stems, so 'garden' finds 'Gardening'), from
 * a word's start; from the start of the text when it is not found there (a stem that is not part
 * of its word, 'happi' for 'happy'), where `ts_headline` still marks any match it reads. A whole
 * text is ten times the parsing for the same snippet. `<` and `&` become their stand-ins.
 */
function snippetSource(query: RawBuilder<string>): RawBuilder<string> {
  const text = sql<string>`coalesce(blogs.body_text, blogs.excerpt, '')`;
  const firstLexeme = sql<string>`replace(substring(querytree(${query}) from $$'((?:[^']|'')+)'$$), $$''$$, $$'$$)`;
  const at = sql<number>`strpos(lower(${text}), ${firstLexeme})`;
  const windowed = sql<string>`case when ${at} <= ${sql.lit(SNIPPET_LEAD)} then left(${text}, ${sql.lit(SNIPPET_WINDOW)})
    else regexp_replace(substr(${text}, ${at} - ${sql.lit(SNIPPET_LEAD)}, ${sql.lit(SNIPPET_WINDOW)}), '^\S*\s+', '') end`;
  return sql<string>`translate(${windowed}, '<&', ${LESS_THAN_STAND_IN + AMPERSAND_STAND_IN})`;
}

/**
 * One page of matches as cards, with the snippet of each, in one statement: the page's ids are
 * found and ordered on `blogs` alone, and only those rows are joined to their authors and given a
 * snippet.
 */
export function selectMatchPage(db: Kysely<Database>, term: string, page: MatchPage) {
  const query = textQuery(term);
  return selectBlogSummaryRows(db, null)
    .innerJoin(matchPageIds(db, term, page), 'page.id', 'blogs.id')
    .select(sql<string>`ts_headline('english', ${snippetSource(query)}, ${query}, ${HEADLINE_OPTIONS})`.as('headline'))
    .orderBy('page.part')
    .orderBy('page.rank', 'desc')
    .orderBy('blogs.rating', 'desc')
    .orderBy('blogs.created_at', 'desc')
    .orderBy('blogs.id', 'desc');
}
