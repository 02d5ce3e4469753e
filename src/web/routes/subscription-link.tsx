import { paths } from '../../shared/paths';
import { getSubscriptionByTokenQueryOptions } from '../features/subscriptions/api/get-subscription-by-token';
import type { SubscriptionLinkKind } from '../features/subscriptions/api/subscription-link-action';
import { SubscriptionLinkCard, SubscriptionLinkNotValid } from '../features/subscriptions/components/subscription-link-cards';
import { subscriptionTexts } from '../features/subscriptions/subscription-texts';
import { tokenOf, useLinkToken } from '../lib/link-token';
import { queryLoader, routeError } from '../lib/load-query';
import type { Screen } from '../lib/screen';

/**
 * Where a subscription e-mail's links lead: /subscription/confirm?token= (the confirmation
 * e-mail) and /subscription/unsubscribe?token= (every e-mail; mail programs POST to the same URL
 * instead, the server's one click). Only the page's button acts: reading what the link is about
 * changes nothing, so a mail scanner's GET confirms or unsubscribes no one.
 */
function subscriptionLinkScreen(kind: SubscriptionLinkKind, meta: { title: string; description: string; path: string }): Screen {
  return {
    cache: 'never',
    Component: function SubscriptionLinkPage() {
      return <SubscriptionLinkCard kind={kind} token={useLinkToken()} />;
    },
    loader: queryLoader((url) => {
      const token = tokenOf(url);
      if (!token) throw routeError(404, subscriptionTexts.linkNotValid);
      return getSubscriptionByTokenQueryOptions(token);
    }),
    // The canonical path leaves the token out: it is the reader's own.
    meta: () => meta,
    loadError: 'The subscription could not be loaded.',
    NotFound: SubscriptionLinkNotValid,
  };
}

export const confirmSubscriptionScreen = subscriptionLinkScreen('confirm', {
  title: subscriptionTexts.confirm,
  description: 'Confirm a subscription to new blogs by e-mail.',
  path: paths.confirmSubscription(''),
});

export const unsubscribeSubscriptionScreen = subscriptionLinkScreen('unsubscribe', {
  title: subscriptionTexts.unsubscribe,
  description: 'Stop e-mails about new blogs.',
  path: paths.unsubscribeSubscription(''),
});
