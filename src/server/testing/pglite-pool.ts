import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import './provided-context.js';

/**
 * The test apps' PGlite databases, reused within a worker (docs/testing.md). Opening one from the
 * run's migrated template costs 1–2.5 s of CPU (the tar into Emscripten's file system, Postgres'
 * start in WebAssembly); putting a used one back as the template left it costs about a tenth:
 * every table emptied in one TRUNCATE (identities restarted, planner statistics dropped), the
 * template's few rows (the migrations' own) written back, the session reset (`DISCARD ALL`).
 *
 * A database goes back only when it is still what the template was: open, not in a transaction,
 * and with the template's schema (a fingerprint of every table, column, index, constraint,
 * trigger, function, type and extension outside Postgres' own). Anything else (a test that closed
 * it, altered a table or left a transaction open) closes it, and the next app opens a fresh one.
 * An app's handle on a database it gave back is revoked: a late query of a closed app fails
 * loudly instead of writing into the next test's database.
 */

export interface PooledPGlite {
  /** What the app's database handle is given: the instance, until `giveBack`. */
  pglite: PGlite;
  /** Remembers a channel the app listens on, to stop hearing it when the database goes back. */
  listening(channel: string): void;
  /** Resets the database to the template and keeps it for the next app, or closes it. */
  giveBack(): Promise<void>;
}

/** Idle databases kept per worker: two test apps at once (two sites) are the most any file needs. */
const MAX_IDLE = 2;
const idle: PGlite[] = [];

interface Template {
  path: string;
  tar: Uint8Array<ArrayBuffer>;
  /** Read from the first database opened from `tar`, before anything touched it. */
  baseline?: Promise<{ fingerprint: string; reset: string }>;
}
let template: Template | undefined;

export async function takePGlite(): Promise<PooledPGlite> {
  const current = templateNow();
  const pglite = idle.pop() ?? (await PGlite.create({ loadDataDir: new Blob([current.tar], { type: 'application/x-tar' }) }));
  current.baseline ??= readBaseline(pglite);
  await current.baseline;
  const lent = Proxy.revocable(pglite, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const channels = new Set<string>();
  return {
    pglite: lent.proxy,
    listening: (channel) => channels.add(channel),
    async giveBack() {
      lent.revoke();
      if (pglite.closed) return;
      try {
        for (const channel of channels) await pglite.unlisten(channel);
        if (pglite.isInTransaction() || idle.length >= MAX_IDLE || current !== template) throw new Error('not kept');
        const { fingerprint, reset } = await current.baseline!;
        await pglite.exec('discard all');
        if ((await fingerprintOf(pglite)) !== fingerprint) throw new Error('schema changed');
        await pglite.exec(reset);
        idle.push(pglite);
      } catch {
        await pglite.close().catch(() => {});
      }
    },
  };
}

/** The run's migrated PGlite as a plain tar, unzipped once per worker rather than once per app. */
function templateNow(): Template {
  const path = inject('pgliteTemplatePath');
  if (template?.path !== path) {
    for (const stale of idle.splice(0)) void stale.close();
    template = { path, tar: new Uint8Array(gunzipSync(readFileSync(path))) };
  }
  return template;
}

const USER_SCHEMAS = `not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%' and n.nspname not like 'pg_temp%'`;

async function fingerprintOf(pglite: PGlite): Promise<string> {
  const { rows } = await pglite.query<{ fingerprint: string }>(`
    select md5(string_agg(item, E'\\n' order by item)) as fingerprint from (
      select 'relation ' || c.oid::regclass || ' ' || c.relkind::text || ' ' || coalesce(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), ''), '') as item
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
        where n.nspname ${USER_SCHEMAS}
      union all select 'index ' || pg_get_indexdef(i.indexrelid) from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace where n.nspname ${USER_SCHEMAS}
      union all select 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(k.oid) from pg_constraint k join pg_namespace n on n.oid = k.connamespace where n.nspname ${USER_SCHEMAS}
      union all select 'trigger ' || pg_get_triggerdef(t.oid) || ' ' || t.tgenabled::text from pg_trigger t where not t.tgisinternal
      union all select 'function ' || p.oid::regprocedure || ' ' || md5(p.prosrc) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname ${USER_SCHEMAS}
      union all select 'type ' || t.oid::regtype from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname ${USER_SCHEMAS}
      union all select 'extension ' || extname || ' ' || extversion from pg_extension
      union all select 'schema ' || nspname from pg_namespace n where n.nspname ${USER_SCHEMAS}
    ) items`);
  return rows[0]!.fingerprint;
}

/** The template's fingerprint, and the SQL that empties a database and writes the template's rows back. */
async function readBaseline(pglite: PGlite): Promise<{ fingerprint: string; reset: string }> {
  const fingerprint = await fingerprintOf(pglite);
  const tables = (
    await pglite.query<{ name: string }>(
      `select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind in ('r', 'p') and n.nspname ${USER_SCHEMAS} order by 1`,
    )
  ).rows.map((row) => row.name);
  const restore: string[] = [];
  for (const table of tables) {
    const { rows } = await pglite.query<{ rows: string | null }>(`select json_agg(t)::text as rows from ${table} t`);
    if (rows[0]?.rows) restore.push(`insert into ${table} overriding system value select * from json_populate_recordset(null::${table}, ${quoteLiteral(rows[0].rows)});`);
  }
  const reset = [
    // Triggers (the counters' own) stay out of the way while the rows are put back as they were.
    'set session_replication_role = replica;',
    `truncate ${tables.join(', ')} restart identity;`,
    // Counters and planner statistics as a new database has them (none).
    'select pg_stat_reset();',
    `delete from pg_statistic where starelid in (select c.oid from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname ${USER_SCHEMAS});`,
    ...restore,
    'set session_replication_role = default;',
  ].join('\n');
  return { fingerprint, reset };
}

function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
