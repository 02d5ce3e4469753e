import { sql, type Kysely } from 'kysely';
import type { Database, WebhookDeliveryStatus } from '../db/schema.js';

/** Every SQL statement of webhooks (issue 44); rows are mapped to the API in `webhooks.service.ts`. */

export type WebhookRow = Awaited<ReturnType<typeof listWebhookRows>>[number];
export type DeliveryRow = Awaited<ReturnType<typeof recentDeliveryRows>>[number];

export function listWebhookRows(db: Kysely<Database>) {
  return db.selectFrom('webhooks').select(['id', 'event', 'target_url', 'secret', 'created_by_email', 'created_at']).orderBy('created_at', 'desc').orderBy('id').execute();
}

export function findWebhookRow(db: Kysely<Database>, id: string) {
  return db.selectFrom('webhooks').select(['id', 'event', 'target_url', 'secret', 'created_by_email', 'created_at']).where('id', '=', id).executeTakeFirst();
}

export function webhookIdsFor(db: Kysely<Database>, event: string) {
  return db.selectFrom('webhooks').select('id').where('event', '=', event).execute();
}

export function insertWebhook(db: Kysely<Database>, row: { id: string; event: string; targetUrl: string; secret: string; createdBy: { id: string; email: string } }) {
  return db
    .insertInto('webhooks')
    .values({ id: row.id, event: row.event, target_url: row.targetUrl, secret: row.secret, created_by: row.createdBy.id, created_by_email: row.createdBy.email })
    .returning(['id', 'event', 'target_url', 'secret', 'created_by_email', 'created_at'])
    .executeTakeFirstOrThrow();
}

export function deleteWebhookRow(db: Kysely<Database>, id: string) {
  return db.deleteFrom('webhooks').where('id', '=', id).returning(['id', 'event', 'target_url', 'secret', 'created_by_email', 'created_at']).executeTakeFirst();
}

const DELIVERY_COLUMNS = ['id', 'webhook_id', 'event', 'status', 'attempts', 'last_http_status', 'last_response', 'created_at', 'last_attempt_at', 'delivered_at'] as const;

/** The `perWebhook` newest deliveries of each of `webhookIds`. */
export async function recentDeliveryRows(db: Kysely<Database>, webhookIds: readonly string[], perWebhook: number) {
  if (webhookIds.length === 0) return [];
  return db
    .selectFrom((eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select([...DELIVERY_COLUMNS, sql<number>`row_number() over (partition by webhook_id order by created_at desc, id desc)`.as('n')])
        .where('webhook_id', 'in', webhookIds)
        .as('d'),
    )
    .select(DELIVERY_COLUMNS)
    .where('n', '<=', perWebhook)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function findDeliveryRow(db: Kysely<Database>, id: string) {
  return db.selectFrom('webhook_deliveries').select([...DELIVERY_COLUMNS]).where('id', '=', id).executeTakeFirst();
}

/** A delivery with what it needs to be sent: its body, its webhook's target and secret. */
export function deliveryToSend(db: Kysely<Database>, id: string) {
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
    .select(['webhook_deliveries.id', 'webhook_deliveries.event', 'webhook_deliveries.payload', 'webhook_deliveries.status', 'webhooks.target_url', 'webhooks.secret'])
    .where('webhook_deliveries.id', '=', id)
    .executeTakeFirst();
}

/** New deliveries, one per webhook; those already there for the event (a retried event) are left. Answers the new ones' ids. */
export async function insertDeliveries(db: Kysely<Database>, rows: ReadonlyArray<{ id: string; webhookId: string; event: string; eventId: string; payload: unknown }>) {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('webhook_deliveries')
    .values(rows.map((row) => ({ id: row.id, webhook_id: row.webhookId, event: row.event, event_id: row.eventId, payload: JSON.stringify(row.payload) })))
    .onConflict((conflict) => conflict.columns(['webhook_id', 'event_id']).doNothing())
    .returning('id')
    .execute();
  return inserted.map((row) => row.id);
}

export function recordAttempt(
  db: Kysely<Database>,
  id: string,
  outcome: { status: WebhookDeliveryStatus; attempts: number; httpStatus: number | null; response: string | null },
) {
  return db
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.status,
      attempts: outcome.attempts,
      last_http_status: outcome.httpStatus,
      last_response: outcome.response,
      last_attempt_at: sql<Date>`now()`,
      ...(outcome.status === 'delivered' ? { delivered_at: sql<Date>`now()` } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** A new comment as webhooks show it: with its author's address and its blog's id and title. */
export function commentForWebhook(db: Kysely<Database>, commentId: string) {
  return db
    .selectFrom('comments')
    .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
    .leftJoin('user', 'user.id', 'comments.user_id')
    .select([
      'comments.id',
      'comments.blog_id',
      'comments.parent_id',
      'comments.user_id',
      'comments.body',
      'comments.html',
      'comments.created_at',
      'comments.hidden_at',
      'comments.author_suspended_at',
      'comments.remote_author_name',
      'user.email',
      'blogs.title as blog_title',
    ])
    .where('comments.id', '=', commentId)
    .executeTakeFirst();
}

export function accountForWebhook(db: Kysely<Database>, userId: string) {
  return db.selectFrom('user').select(['id', 'email', 'name', 'handle', 'display_name', 'createdAt']).where('id', '=', userId).executeTakeFirst();
}
