import { randomUUID } from 'node:crypto';
import type { MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from '@fedify/fedify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { enqueueJob, type JobQueue } from '../queue/job-queue.js';

/** The durable queue's kind for Fedify's messages (deliveries to inboxes, received activities). */
export const FEDERATION_MESSAGE_JOB = 'federation-message';

type Handler = (message: unknown) => Promise<void> | void;

export interface FederationMessageQueue extends MessageQueue {
  /** Runs one message through the handler Fedify gave `listen` (the job's run). */
  handle(message: unknown): Promise<void>;
}

/**
 * Fedify's message queue on our durable queue: a message is a `federation-message` job (a delay
 * is its `run_at`), and a failure is retried by our queue (`nativeRetrial`), so Fedify does not
 * queue retries of its own. `listen` only keeps Fedify's handler: our queue's workers call it.
 */
export function createMessageQueue(db: Kysely<Database>, queue: Pick<JobQueue, 'wake'>): FederationMessageQueue {
  let handler: Handler | undefined;
  const enqueueOne = async (message: unknown, options?: MessageQueueEnqueueOptions) => {
    const delayMs = options?.delay ? Math.max(0, options.delay.total('millisecond')) : 0;
    await enqueueJob(db, {
      kind: FEDERATION_MESSAGE_JOB,
      key: `${FEDERATION_MESSAGE_JOB}:${randomUUID()}`,
      payload: { message },
      runAt: delayMs > 0 ? new Date(Date.now() + delayMs) : undefined,
    });
  };
  return {
    nativeRetrial: true,
    async enqueue(message, options) {
      await enqueueOne(message, options);
      queue.wake();
    },
    async enqueueMany(messages, options) {
      for (const message of messages) await enqueueOne(message, options);
      queue.wake();
    },
    listen(listener: Handler, options?: MessageQueueListenOptions) {
      handler = listener;
      const signal = options?.signal;
      return new Promise<void>((resolve) => {
        if (!signal) return;
        if (signal.aborted) resolve();
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    },
    async handle(message) {
      if (!handler) throw new Error('Fedify has not started listening to the queue');
      await handler(message);
    },
  };
}
