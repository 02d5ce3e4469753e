import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto';
import type { Kysely, Selectable } from 'kysely';
import type { CreatedIntegration, Integration, IntegrationList } from '../../shared/integration-schema.js';
import { recordAudit } from '../core/audit-log.js';
import type { Database, IntegrationTable } from '../db/schema.js';
import { notFound } from '../errors.js';
import { parseId } from '../http/ids.js';

/**
 * Integrations (issue 60): their keys are made here, kept encrypted with the site's secret
 * (`AUTH_SECRET`, through Better Auth's own `symmetricEncrypt`, as it keeps second factors'
 * secrets), and a Content API key is found by its SHA-256, then compared in constant time.
 */
export interface IntegrationsDeps {
  db: Kysely<Database>;
  /** The site's secret (`config.authSecret`). */
  secret: string;
  publicUrl: string;
}

/** Content API answers are kept by the response cache under this tag (among others); a change to an integration's keys drops them all. */
export const GHOST_CONTENT_TAG = 'ghost-content';

type Actor = { id: string; email: string };
type IntegrationRow = Selectable<IntegrationTable>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const missing = () => notFound('No such integration.');

/** Ghost's shapes: 26 hex characters; a 24-hex id and a 64-hex secret. */
function newKeys() {
  return { contentKey: randomBytes(13).toString('hex'), adminKeyId: randomBytes(12).toString('hex'), adminSecret: randomBytes(32).toString('hex') };
}

async function encryptedKeys(deps: IntegrationsDeps, keys: ReturnType<typeof newKeys>) {
  return {
    content_key_hash: sha256(keys.contentKey),
    content_key_encrypted: await symmetricEncrypt({ key: deps.secret, data: keys.contentKey }),
    admin_key_id: keys.adminKeyId,
    admin_secret_encrypted: await symmetricEncrypt({ key: deps.secret, data: keys.adminSecret }),
  };
}

async function toIntegrationJson(deps: IntegrationsDeps, row: IntegrationRow): Promise<Integration> {
  return {
    id: row.id,
    name: row.name,
    contentKey: await symmetricDecrypt({ key: deps.secret, data: row.content_key_encrypted }),
    adminKeyId: row.admin_key_id,
    apiUrl: deps.publicUrl,
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
  };
}

/** What the audit log keeps of an integration: its name and key id, never a key. */
const audited = (row: Pick<IntegrationRow, 'name' | 'admin_key_id'>) => ({ name: row.name, adminKeyId: row.admin_key_id });

export async function listIntegrations(deps: IntegrationsDeps): Promise<IntegrationList> {
  const rows = await deps.db.selectFrom('integrations').selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
  return { items: await Promise.all(rows.map((row) => toIntegrationJson(deps, row))) };
}

export async function createIntegration(deps: IntegrationsDeps, actor: Actor, name: string): Promise<CreatedIntegration> {
  const keys = newKeys();
  const values = { id: randomUUID(), name, created_by: actor.id, ...(await encryptedKeys(deps, keys)) };
  const row = await deps.db.transaction().execute(async (trx) => {
    const created = await trx.insertInto('integrations').values(values).returningAll().executeTakeFirstOrThrow();
    await recordAudit(trx, { actor, action: 'integration.create', subject: created.id, after: audited(created) });
    return created;
  });
  return { integration: await toIntegrationJson(deps, row), adminKey: `${keys.adminKeyId}:${keys.adminSecret}` };
}

/** New Content and Admin API keys: the old ones stop working at once. */
export async function regenerateIntegrationKeys(deps: IntegrationsDeps, actor: Actor, id: string): Promise<CreatedIntegration> {
  parseId(id, missing);
  const keys = newKeys();
  const values = await encryptedKeys(deps, keys);
  const row = await deps.db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('integrations').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (!before) throw missing();
    const after = await trx.updateTable('integrations').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    await recordAudit(trx, { actor, action: 'integration.regenerate', subject: id, before: audited(before), after: audited(after) });
    return after;
  });
  return { integration: await toIntegrationJson(deps, row), adminKey: `${keys.adminKeyId}:${keys.adminSecret}` };
}

export async function deleteIntegration(deps: IntegrationsDeps, actor: Actor, id: string): Promise<void> {
  parseId(id, missing);
  await deps.db.transaction().execute(async (trx) => {
    const gone = await trx.deleteFrom('integrations').where('id', '=', id).returningAll().executeTakeFirst();
    if (!gone) throw missing();
    await recordAudit(trx, { actor, action: 'integration.delete', subject: id, before: audited(gone) });
  });
}

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** The integration a Content API key belongs to, or null; its last use noted (at most once a minute). */
export async function integrationByContentKey(deps: IntegrationsDeps, key: string): Promise<{ id: string } | null> {
  if (!/^[0-9a-f]{26}$/.test(key)) return null;
  const row = await deps.db.selectFrom('integrations').select(['id', 'content_key_encrypted']).where('content_key_hash', '=', sha256(key)).executeTakeFirst();
  if (!row || !sameText(await symmetricDecrypt({ key: deps.secret, data: row.content_key_encrypted }), key)) return null;
  await noteUse(deps, row.id);
  return { id: row.id };
}

/** The Admin API key's secret of a key id (a JWT's `kid`), hex; null for an unknown id. */
export async function adminSecretOf(deps: IntegrationsDeps, keyId: string): Promise<{ id: string; secret: string } | null> {
  if (!/^[0-9a-f]{24}$/.test(keyId)) return null;
  const row = await deps.db.selectFrom('integrations').select(['id', 'admin_secret_encrypted']).where('admin_key_id', '=', keyId).executeTakeFirst();
  if (!row) return null;
  return { id: row.id, secret: await symmetricDecrypt({ key: deps.secret, data: row.admin_secret_encrypted }) };
}

export async function noteUse(deps: IntegrationsDeps, id: string): Promise<void> {
  await deps.db
    .updateTable('integrations')
    .set({ last_used_at: new Date() })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', new Date(Date.now() - 60_000))]))
    .execute();
}
