import type { FastifyBaseLogger } from 'fastify';
import { publicAuthorName } from '../../shared/author-name.js';
import type { ShowAuthorsBy } from '../../shared/site-settings-schema.js';
import type { Kysely } from 'kysely';
import { paths } from '../../shared/paths.js';
import type { SubscribeInput, SubscribeResult, Subscription, SubscriptionByToken, SubscriptionTarget } from '../../shared/subscription-schema.js';
import { signedToken, valueOfSignedToken } from '../core/signed-token.js';
import type { SessionUser } from '../core/session-user.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { forbidden, notFound } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import { clientKey, type RateLimiter } from '../rate-limit/rate-limit.js';
import {
  confirmSubscription,
  countConfirmedSubscribers,
  deleteSubscription,
  findAuthor,
  findSubscription,
  findUserVerification,
  selectUserSubscriptions,
  upsertSubscription,
  type SubscriptionRow,
} from './subscriptions.repository.js';
import type { SiteNameSource } from '../core/site-settings.js';

export interface SubscriptionDeps {
  db: Kysely<Database>;
  mailer: Mailer;
  limiter: RateLimiter;
  config: Pick<Config, 'publicUrl' | 'authSecret'>;
  /** The site's name in the mail, as its settings have it now. */
  siteSettings: SiteNameSource;
  log: FastifyBaseLogger;
}

/** A person subscribes a few times; an address is asked to confirm a few times an hour at most. */
export const SUBSCRIBE_CLIENT_LIMIT = { max: 20, windowSeconds: 10 * 60 };
export const SUBSCRIBE_ADDRESS_LIMIT = { max: 3, windowSeconds: 60 * 60 };
const TOO_MANY_SUBSCRIBES = 'Too many subscriptions in a short time. Please wait a few minutes and try again.';
/** Confirming and unsubscribing by link, per client: a person clicks once; a stop for anyone guessing tokens. */
export const SUBSCRIPTION_LINK_LIMIT = { max: 30, windowSeconds: 10 * 60 };
export const TOO_MANY_LINK_USES = 'Too many attempts. Please wait a few minutes and try again.';

export const LINK_NOT_VALID = 'This link is not valid any more.';
const NO_SUCH_AUTHOR = 'This author does not exist.';

/** The two tokens of a subscription's links: one confirms it, one ends it. Neither does the other's work. */
const CONFIRM = 'subscription-confirm';
const UNSUBSCRIBE = 'subscription-unsubscribe';
export const confirmToken = (id: string, secret: string) => signedToken(CONFIRM, id, secret);
export const unsubscribeToken = (id: string, secret: string) => signedToken(UNSUBSCRIBE, id, secret);

export function unsubscribeUrl(config: Pick<Config, 'publicUrl' | 'authSecret'>, subscriptionId: string): string {
  return `${config.publicUrl}${paths.unsubscribeSubscription(unsubscribeToken(subscriptionId, config.authSecret))}`;
}

/** The author named as the site's 'Show authors by' says (the link's page is anyone's who holds the link). */
export function targetOf(row: Pick<SubscriptionRow, 'author_id' | 'author_email' | 'author_display_name' | 'author_handle'>, showAuthorsBy: ShowAuthorsBy): SubscriptionTarget {
  if (!row.author_id) return { kind: 'site' };
  const authorName = publicAuthorName(showAuthorsBy, { email: row.author_email ?? '', displayName: row.author_display_name, handle: row.author_handle ?? '' });
  return { kind: 'author', authorId: row.author_id, authorName };
}

/**
 * Signed in with their own verified address: subscribed at once. Anyone else: a confirmation
 * e-mail (double opt-in), once per address until it is confirmed. The answer is the same whether
 * or not the address was subscribed before, so the form tells nobody who is.
 */
export async function subscribe(deps: SubscriptionDeps, viewer: SessionUser | null, input: SubscribeInput, ip: string): Promise<SubscribeResult> {
  await deps.limiter.enforce(`subscribe:${clientKey(ip)}`, SUBSCRIBE_CLIENT_LIMIT, TOO_MANY_SUBSCRIBES);
  const email = input.email.toLowerCase();
  const author = input.authorId === undefined ? null : await findAuthor(deps.db, input.authorId);
  if (input.authorId !== undefined && !author) throw notFound(NO_SUCH_AUTHOR);
  const authorId = author?.id ?? null;

  const own = viewer ? await findUserVerification(deps.db, viewer.id) : undefined;
  if (viewer && own?.emailVerified && own.email.toLowerCase() === email) {
    await upsertSubscription(deps.db, { email, authorId, confirmedBy: viewer.id });
    return { status: 'subscribed' };
  }

  await deps.limiter.enforce(`subscribe-address:${email}`, SUBSCRIBE_ADDRESS_LIMIT, TOO_MANY_SUBSCRIBES);
  const subscription = await upsertSubscription(deps.db, { email, authorId });
  if (!subscription.confirmed) {
    const { siteName, showAuthorsBy } = await deps.siteSettings.get();
    const authorName = author ? publicAuthorName(showAuthorsBy, { email: author.email, displayName: author.display_name, handle: author.handle }) : null;
    await deps.mailer.send(confirmationMail(deps, siteName, email, subscription.id, authorName));
  }
  return { status: 'pending' };
}

export function confirmationMail(deps: Pick<SubscriptionDeps, 'config'>, siteName: string, email: string, id: string, authorName: string | null) {
  const { publicUrl, authSecret } = deps.config;
  const what = authorName ? `new blogs by ${authorName} on ${siteName}` : `new blogs on ${siteName}`;
  const link = `${publicUrl}${paths.confirmSubscription(confirmToken(id, authSecret))}`;
  return {
    to: email,
    subject: `Confirm your subscription to ${siteName}`,
    text: `Someone asked to send ${what} to this address.\n\nTo confirm, open this link and press 'Confirm subscription' on the page:\n${link}\n\nIf it was not you, ignore this e-mail: nothing will be sent.\n`,
  };
}

function subscriptionOfToken(token: string, secret: string, purposes: ReadonlyArray<typeof CONFIRM | typeof UNSUBSCRIBE>): string {
  for (const purpose of purposes) {
    const id = valueOfSignedToken(purpose, token, secret);
    // Ids are UUIDs; anything else cannot name one, and must not reach Postgres as a uuid.
    if (id && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) return id;
  }
  throw notFound(LINK_NOT_VALID);
}

/** What a confirmation or unsubscribe link is about, for its page. */
export async function describeByToken(deps: SubscriptionDeps, token: string): Promise<SubscriptionByToken> {
  const row = await findSubscription(deps.db, subscriptionOfToken(token, deps.config.authSecret, [CONFIRM, UNSUBSCRIBE]));
  if (!row) throw notFound(LINK_NOT_VALID);
  return { email: row.email, target: targetOf(row, (await deps.siteSettings.get()).showAuthorsBy), confirmed: row.confirmed_at !== null };
}

export async function confirmByToken(deps: SubscriptionDeps, token: string): Promise<void> {
  if (!(await confirmSubscription(deps.db, subscriptionOfToken(token, deps.config.authSecret, [CONFIRM])))) throw notFound(LINK_NOT_VALID);
}

/** A subscription already gone is still 'unsubscribed': the link did what it says. */
export async function unsubscribeByToken(deps: SubscriptionDeps, token: string): Promise<void> {
  await deleteSubscription(deps.db, subscriptionOfToken(token, deps.config.authSecret, [UNSUBSCRIBE]));
}

async function ownerOf(deps: SubscriptionDeps, user: SessionUser) {
  const own = await findUserVerification(deps.db, user.id);
  return { id: user.id, email: own?.email ?? user.email, emailVerified: own?.emailVerified ?? false };
}

export async function listOwnSubscriptions(deps: SubscriptionDeps, user: SessionUser): Promise<Subscription[]> {
  const rows = await selectUserSubscriptions(deps.db, await ownerOf(deps, user));
  const { showAuthorsBy } = await deps.siteSettings.get();
  return rows.filter((row) => row.confirmed_at !== null).map((row) => ({ id: row.id, email: row.email, target: targetOf(row, showAuthorsBy), createdAt: row.created_at.toISOString() }));
}

export async function removeOwnSubscription(deps: SubscriptionDeps, user: SessionUser, id: string): Promise<void> {
  if (!/^[0-9a-f-]{36}$/.test(id) || !(await deleteSubscription(deps.db, id, await ownerOf(deps, user)))) throw notFound('No such subscription.');
}

/** Only the author learns how many follow them. */
export async function subscriberCount(deps: SubscriptionDeps, viewer: SessionUser, authorId: string): Promise<{ count: number }> {
  if (viewer.id !== authorId) throw forbidden('Only the author can see their number of subscribers.');
  return { count: await countConfirmedSubscribers(deps.db, authorId) };
}
