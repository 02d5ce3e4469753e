import { type Kysely, sql } from 'kysely';

/**
 * The durable job queue (`src/server/queue/`), and e-mail subscriptions to the site or to one author.
 *
 * `queued_jobs`: one row a job. `key` is the job's idempotency key: a second enqueue of the same key
 * is a no-op, so a blog is announced once and each address hears of it once. A worker takes due
 * rows with `for update skip locked` and holds them for a lease (`locked_until`); a process that
 * dies mid-job leaves its lease to run out, and the job is taken again. Finished rows stay a while
 * (the moderators' view, and the keys' memory); failed ones stay until retried.
 *
 * `subscriptions`: an address subscribed to the whole site (`author_id` null) or to one author.
 * `confirmed_at` is null until the address's owner confirmed it (double opt-in), or set at once when
 * a signed-in reader subscribed their own verified address (`user_id`). An address has at most one
 * subscription per target. Deleting an account removes its subscriptions and those to it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table queued_jobs (
      id bigint generated always as identity primary key,
      kind text not null,
      key text not null unique,
      payload jsonb not null default '{}'::jsonb,
      state text not null default 'pending' check (state in ('pending', 'running', 'done', 'failed')),
      attempts integer not null default 0,
      max_attempts integer not null default 8 check (max_attempts > 0),
      run_at timestamptz not null default now(),
      locked_until timestamptz,
      last_error text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  // What a worker looks for: due pending jobs, and running ones whose lease ran out.
  await sql`create index queued_jobs_due_idx on queued_jobs (run_at) where state in ('pending', 'running')`.execute(db);
  await sql`create index queued_jobs_state_idx on queued_jobs (state, updated_at)`.execute(db);

  await sql`
    create table subscriptions (
      id uuid primary key default gen_random_uuid(),
      email text not null check (email = lower(email)),
      author_id text references "user"(id) on delete cascade,
      user_id text references "user"(id) on delete cascade,
      confirmed_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index subscriptions_target_idx on subscriptions (email, coalesce(author_id, ''))`.execute(db);
  await sql`create index subscriptions_author_idx on subscriptions (author_id) where confirmed_at is not null`.execute(db);
  await sql`create index subscriptions_user_idx on subscriptions (user_id) where user_id is not null`.execute(db);
}
