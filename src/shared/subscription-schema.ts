import { z } from 'zod';
import { EMAIL_MAX_LENGTH } from './constants.js';

/** What a subscription is to: the whole site, or one author's blogs. */
export const subscriptionTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('site') }),
  z.object({ kind: z.literal('author'), authorId: z.string(), authorName: z.string() }),
]);
export type SubscriptionTarget = z.infer<typeof subscriptionTargetSchema>;

export const INVALID_SUBSCRIPTION_EMAIL = 'Enter a valid e-mail address.';

/** `POST /api/subscriptions`: an address, and an author's id for that author's blogs (none: the whole site). */
export const subscribeInputSchema = z.object({
  email: z
    .string({ message: INVALID_SUBSCRIPTION_EMAIL })
    .trim()
    .max(EMAIL_MAX_LENGTH, INVALID_SUBSCRIPTION_EMAIL)
    .pipe(z.email({ message: INVALID_SUBSCRIPTION_EMAIL })),
  authorId: z.string().min(1).max(100).optional(),
});
export type SubscribeInput = z.infer<typeof subscribeInputSchema>;

/**
 * The answer to a subscribe: `subscribed` when a signed-in reader subscribed their own verified
 * address (at once), `pending` otherwise (a confirmation e-mail is on its way). The same answer
 * whether or not the address was subscribed before: the form tells no one who is.
 */
export const subscribeResultSchema = z.object({ status: z.enum(['pending', 'subscribed']) });
export type SubscribeResult = z.infer<typeof subscribeResultSchema>;

/** The signed token of a confirmation or unsubscribe link. */
export const subscriptionTokenInputSchema = z.object({ token: z.string().min(1).max(500) });

/** `GET /api/subscriptions/by-token?token=`: what a confirmation or unsubscribe link is about. */
export const subscriptionByTokenSchema = z.object({
  email: z.string(),
  target: subscriptionTargetSchema,
  confirmed: z.boolean(),
});
export type SubscriptionByToken = z.infer<typeof subscriptionByTokenSchema>;

/** One of the signed-in reader's subscriptions (`GET /api/settings/subscriptions`). */
export const subscriptionSchema = z.object({
  id: z.string(),
  email: z.string(),
  target: subscriptionTargetSchema,
  createdAt: z.string(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;
export const subscriptionListSchema = z.object({ items: z.array(subscriptionSchema) });
export type SubscriptionList = z.infer<typeof subscriptionListSchema>;

/** `GET /api/authors/:id/subscribers`: the author's own number of confirmed subscribers (only the author may ask). */
/** `POST /api/subscriptions/unsubscribe` and `DELETE /api/settings/subscriptions/:id`. */
export const unsubscribeResultSchema = z.object({ status: z.literal('unsubscribed') });
export type UnsubscribeResult = z.infer<typeof unsubscribeResultSchema>;

export const subscriberCountSchema = z.object({ count: z.number().int() });

/** The durable queue as moderators see it (`GET /api/moderation/queue`). */
export const queueJobSchema = z.object({
  id: z.string(),
  /** `mail` (one message), `subscription-mail` (one subscriber, one blog), `subscription-fanout` (one blog). */
  kind: z.string(),
  state: z.enum(['pending', 'running', 'done', 'failed']),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  runAt: z.string(),
  updatedAt: z.string(),
});
export type QueueJob = z.infer<typeof queueJobSchema>;
export const queueOverviewSchema = z.object({
  counts: z.object({ pending: z.number().int(), running: z.number().int(), done: z.number().int(), failed: z.number().int() }),
  /** The failed jobs, newest first (at most 50). */
  failed: z.array(queueJobSchema),
});
export type QueueOverview = z.infer<typeof queueOverviewSchema>;
