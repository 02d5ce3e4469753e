import { z } from 'zod';
import { pageWithoutSizeSchemaOf } from './page-schema.js';

/** /admin's Subscribers (issue 59): every e-mail subscription, for the owner and administrators. */
export const SUBSCRIBERS_PAGE_SIZE = 50;

export const subscribersQuerySchema = z.object({
  /** Part of an address. */
  search: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type SubscribersQuery = z.infer<typeof subscribersQuerySchema>;

export const subscriberSchema = z.object({
  id: z.string(),
  email: z.string(),
  /** The site as a whole, or one author (by name). */
  target: z.discriminatedUnion('kind', [z.object({ kind: z.literal('site') }), z.object({ kind: z.literal('author'), authorId: z.string(), authorName: z.string() })]),
  since: z.string(),
  confirmed: z.boolean(),
});
export type Subscriber = z.infer<typeof subscriberSchema>;

/** Per author (and the site as a whole: `authorId` null): confirmed and waiting subscribers, and fediverse followers. */
export const subscriberCountSchema = z.object({
  authorId: z.string().nullable(),
  name: z.string(),
  confirmed: z.number().int(),
  waiting: z.number().int(),
  fediverseFollowers: z.number().int(),
});
export type SubscriberCount = z.infer<typeof subscriberCountSchema>;

export const subscribersPageSchema = pageWithoutSizeSchemaOf(subscriberSchema).extend({ counts: z.array(subscriberCountSchema) });
export type SubscribersPage = z.infer<typeof subscribersPageSchema>;

/** A CSV of subscribers: Ghost's, Substack's or Mailchimp's members export, or any with an address column. */
export const SUBSCRIBERS_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const SUBSCRIBERS_IMPORT_MAX_LABEL = '5 MB';
/** The headers an address column has in the exports this reads (compared without case): Ghost `email`, Substack `Email`, Mailchimp `Email Address`. */
export const SUBSCRIBER_EMAIL_HEADERS = ['email', 'email address', 'e-mail', 'e-mail address'] as const;

export const skippedRowSchema = z.object({
  /** The row's line in the file (the header is line 1). */
  line: z.number().int(),
  email: z.string(),
  reason: z.enum(['invalid address', 'duplicate', 'already subscribed']),
});
export type SkippedRow = z.infer<typeof skippedRowSchema>;

export const subscribersImportResultSchema = z.object({
  /** The address column's header as the file has it. */
  column: z.string(),
  imported: z.number().int(),
  confirmed: z.boolean(),
  skipped: z.array(skippedRowSchema),
  /** How many skipped rows there are in all (the list holds the first 200). */
  skippedCount: z.number().int(),
});
export type SubscribersImportResult = z.infer<typeof subscribersImportResultSchema>;
export const SKIPPED_ROWS_LISTED = 200;

export const subscriberRemovedSchema = z.object({ status: z.literal('removed') });
