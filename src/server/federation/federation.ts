import { createFederation, type Federation, type FederationFetchOptions } from '@fedify/fedify';
import type { BlogFederatePayload } from '../core/blog-federation.js';
import { outgoingRequestGuard } from '../http/public-address.js';
import { registerDispatchers } from './dispatchers.js';
import type { FederationDeps, FederationPartDeps } from './federation-deps.js';
import { checkInboxRequest, isUnreadableActivityError } from './inbox-guard.js';
import { registerInboxListeners } from './inbox-listeners.js';
import { createKvStore } from './kv-store.js';
import { createMessageQueue, type FederationMessageQueue } from './message-queue.js';
import { createOutgoing } from './outgoing.js';

/**
 * The site's ActivityPub side, on Fedify. This module (and Fedify with it) is loaded only by the
 * first federation request or job (`federation-loader.ts`): an ordinary request never pays for it.
 * Objects are built from the blog JSON the pages use; an author's actor never shows their e-mail.
 *
 * This file assembles it; the parts are imported only from here:
 * - `dispatchers.ts`: what the fediverse may ask for (actors, keys, NodeInfo, outboxes, followers);
 * - `inbox-listeners.ts`: what is done with each activity delivered to an inbox;
 * - `outgoing.ts`: what the site sends (deliveries, blogs' activities, follows, replies);
 * - `activity-objects.ts`: the Article of a blog and the helpers more than one part uses.
 */
export type { FederationDeps } from './federation-deps.js';
export { FederationInputError } from './outgoing.js';

export interface SiteFederation {
  federation: Federation<void>;
  messages: FederationMessageQueue;
  /**
   * Fedify's routes. An inbox POST passes `inbox-guard.ts` first (shape, then signature); every
   * request Fedify makes while answering is held to public addresses (`http/public-address.ts`).
   */
  fetch(request: Request, options: FederationFetchOptions<void>): Promise<Response>;
  /** One queued Fedify message: a delivery to a non-public inbox fails for good, unsent; the rest run guarded. */
  handleMessage(message: unknown): Promise<void>;
  /** The Article of a public blog as JSON-LD; null when the fediverse may not see it. */
  articleJson(blogId: string): Promise<unknown | null>;
  federateBlog(payload: BlogFederatePayload): Promise<void>;
  follow(userId: string, handle: string): Promise<{ actorId: string; handle: string; name: string | null; state: 'pending' | 'accepted' }>;
  unfollow(userId: string, actorId: string): Promise<boolean>;
  reply(userId: string, inReplyTo: string, text: string): Promise<{ id: string }>;
}

export function createSiteFederation(deps: FederationDeps): SiteFederation {
  const { db, config } = deps;
  const messages = createMessageQueue(db, deps.queue);
  // Every request made on another server's word: inboxes, actors, keys, objects, contexts, WebFinger.
  const guard = outgoingRequestGuard({ allowPrivateAddress: config.federation.allowPrivateAddress });
  const federation = createFederation<void>({
    kv: createKvStore(db),
    queue: messages,
    manuallyStartQueue: true,
    origin: config.publicUrl,
    allowPrivateAddress: config.federation.allowPrivateAddress,
  });

  const parts: FederationPartDeps = { deps, guard };
  registerDispatchers(federation, parts);
  registerInboxListeners(federation, parts);
  const outgoing = createOutgoing(federation, messages, parts);

  async function serve(request: Request, options: FederationFetchOptions<void>): Promise<Response> {
    if (request.method === 'POST') {
      const refused = await checkInboxRequest(request, federation.createContext(request, undefined));
      if (refused) return refused;
    }
    try {
      return await federation.fetch(request, options);
    } catch (error) {
      if (request.method !== 'POST' || !isUnreadableActivityError(error)) throw error;
      return new Response('Invalid activity.', { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    }
  }

  // Whatever they fetch or send on another server's word stays on public addresses.
  const guarded = <A extends unknown[], R>(work: (...args: A) => Promise<R>) => (...args: A) => guard.run(() => work(...args));
  return {
    federation,
    messages,
    fetch: guarded(serve),
    handleMessage: guarded(outgoing.handleMessage),
    articleJson: outgoing.articleJson,
    federateBlog: guarded(outgoing.federateBlog),
    follow: guarded(outgoing.follow),
    unfollow: guarded(outgoing.unfollow),
    reply: guarded(outgoing.reply),
  };
}
