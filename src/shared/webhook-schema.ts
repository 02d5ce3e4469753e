import { z } from 'zod';

/**
 * Webhooks (issue 44, docs/webhooks.md): the events, named as Ghost names its own where it has
 * one (`post.published`, `post.published.edited`, `post.unpublished`, `post.deleted`,
 * `member.added`); Ghost has no comment event, so ours is `comment.added`.
 */
export const WEBHOOK_EVENTS = ['post.published', 'post.published.edited', 'post.unpublished', 'post.deleted', 'comment.added', 'member.added'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const webhookEventSchema = z.enum(WEBHOOK_EVENTS, { message: 'Choose an event.' });

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'post.published': 'Blog published',
  'post.published.edited': 'Published blog edited',
  'post.unpublished': 'Blog unpublished',
  'post.deleted': 'Blog deleted',
  'comment.added': 'Comment added',
  'member.added': 'Account created',
};

export const WEBHOOK_SECRET_MIN = 16;

/** `POST /api/admin/webhooks`: an empty secret has the server make one (shown once, in the answer). */
export const newWebhookSchema = z.object({
  event: webhookEventSchema,
  targetUrl: z
    .string()
    .trim()
    .max(2000, 'The target URL is too long.')
    .pipe(z.url({ protocol: /^https?$/, message: 'Enter an http or https URL.' })),
  secret: z
    .string()
    .trim()
    .max(200, 'The secret is too long: at most 200 characters.')
    .refine((secret) => secret === '' || secret.length >= WEBHOOK_SECRET_MIN, `The secret needs at least ${WEBHOOK_SECRET_MIN} characters (or leave it empty to have one made).`)
    .optional(),
});
export type NewWebhook = z.infer<typeof newWebhookSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const webhookDeliverySchema = z.object({
  id: z.string(),
  event: webhookEventSchema,
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  /** The last answer's HTTP status; null when none came (refused, unreachable, timed out). */
  lastHttpStatus: z.number().nullable(),
  /** The start of the last answer's body, or why there was none. */
  lastResponse: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** A webhook as listed: the secret only masked (its last four characters). */
export const webhookSchema = z.object({
  id: z.string(),
  event: webhookEventSchema,
  targetUrl: z.string(),
  secretMasked: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  /** The most recent deliveries, newest first. */
  deliveries: z.array(webhookDeliverySchema),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookListSchema = z.object({ items: z.array(webhookSchema) });
export type WebhookList = z.infer<typeof webhookListSchema>;

/** The creation's answer: the only one that carries the secret in full. */
export const createdWebhookSchema = z.object({ webhook: webhookSchema, secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const webhookIdParamsSchema = z.object({ id: z.uuid({ message: 'No such webhook.' }) });
