import { type Kysely, sql } from 'kysely';

/**
 * The home list's 'Hot' order, in the form Reddit and Lobsters use: the rating's order of
 * magnitude plus the time written, in units of τ = 3 days (259,200 s). A blog with ten times the
 * rating of another ranks as if it were three days newer; since newer blogs always gain, old
 * ones sink without any job rewriting scores.
 *
 *   hot = sign(r) · log10(max(|r|, 1)) + epoch(created_at) / 259200
 *
 * The score is a stored generated column of the counts the vote trigger keeps, so every vote (and
 * a vote's removal, and cascades) moves it in the same statement that moves the counts, and
 * `blogs_hot_idx` keeps paging an index scan. The function is declared immutable, which it is:
 * an epoch does not depend on the session's time zone (Postgres only marks `extract` on
 * timestamptz stable because of other fields).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function blog_hot_score(upvotes integer, downvotes integer, created_at timestamptz)
    returns double precision language sql immutable parallel safe
    return sign((upvotes - downvotes)::double precision) * log(greatest(abs(upvotes - downvotes), 1)::double precision)
      + extract(epoch from created_at)::double precision / 259200`.execute(db);
  await sql`
    alter table blogs add column hot_score double precision not null
    generated always as (blog_hot_score(upvotes, downvotes, created_at)) stored`.execute(db);
  await sql`create index blogs_hot_idx on blogs (hot_score desc, id desc) include (status, hidden_at, author_suspended_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('blogs_hot_idx').execute();
  await db.schema.alterTable('blogs').dropColumn('hot_score').execute();
  await sql`drop function blog_hot_score(integer, integer, timestamptz)`.execute(db);
}
