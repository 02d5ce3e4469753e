import type { BlogEvents } from '../core/blog-events.js';
import { ACCOUNT_CREATED_JOB, COMMENT_ADDED_JOB } from '../core/site-events.js';
import type { JobQueue } from '../queue/job-queue.js';
import { queueDeliveries, type DeliveryDeps } from './webhook-delivery.js';
import { commentAddedPayload, memberAddedPayload, POST_EVENT_FOR, postEventPayload, type PayloadDeps } from './webhook-payloads.js';

/**
 * What webhooks hear (docs/webhooks.md): every blog event (`core/blog-events.ts`, an import's
 * too: a receiver is told of each post that appears; a deletion, as in Ghost, drafts included), a new comment and a new account
 * (`core/site-events.ts`). Each queues one delivery per webhook of the event, keyed by the event's
 * id, so an event heard twice (a retried `blog-event` job) delivers nothing twice.
 */
export function registerWebhookEvents(queue: JobQueue, blogEvents: BlogEvents, deps: PayloadDeps & Pick<DeliveryDeps, 'maxAttempts'>): void {
  blogEvents.subscribe({
    name: 'webhooks',
    async handle(event) {
      if ((await queueDeliveries(deps, POST_EVENT_FOR[event.transition], `blog-event:${event.id}`, () => postEventPayload(deps, event))) > 0) queue.wake();
    },
  });

  queue.register<{ commentId: string }>({
    kind: COMMENT_ADDED_JOB,
    async run(job) {
      if ((await queueDeliveries(deps, 'comment.added', `comment:${job.payload.commentId}`, () => commentAddedPayload(deps, job.payload.commentId))) > 0) queue.wake();
    },
  });

  queue.register<{ userId: string }>({
    kind: ACCOUNT_CREATED_JOB,
    async run(job) {
      if ((await queueDeliveries(deps, 'member.added', `account:${job.payload.userId}`, () => memberAddedPayload(deps, job.payload.userId))) > 0) queue.wake();
    },
  });
}
