import type { SubscriptionTarget } from '../../../shared/subscription-schema';

/** The texts of the subscription form, its e-mails' pages and its Settings section (issue 19). */
export const subscriptionTexts = {
  emailLabel: 'Email address',
  subscribe: 'Subscribe',
  pending: 'Check your inbox: we sent you a link to confirm the subscription.',
  subscribed: 'Subscribed',
  confirm: 'Confirm subscription',
  confirmed: 'You are subscribed.',
  unsubscribe: 'Unsubscribe',
  unsubscribed: 'You are unsubscribed.',
  linkNotValid: 'This link is not valid any more.',
  noSubscriptions: 'You have no subscriptions.',
  subscriberCount: (count: number) => (count === 1 ? '1 subscriber' : `${count} subscribers`),
} as const;

/** What a subscription is to, as a sentence names it: 'the whole site', or the author's name. */
export function targetName(target: SubscriptionTarget): string {
  return target.kind === 'site' ? 'the whole site' : target.authorName;
}
