import { useSearchParams } from 'react-router';
import { paths } from '../../shared/paths';
import { getSubscriptionByTokenQueryOptions } from '../features/subscriptions/api/get-subscription-by-token';
import { SubscriptionLinkNotValid, UnsubscribeSubscriptionCard } from '../features/subscriptions/components/subscription-link-cards';
import { subscriptionTexts } from '../features/subscriptions/subscription-texts';
import { loadQuery, routeError } from '../lib/load-query';
import type { Screen } from '../lib/screen';

const tokenOf = (url: URL) => url.searchParams.get('token') ?? '';

/**
 * /subscription/unsubscribe?token= : where a subscription e-mail's unsubscribe link leads; its
 * button unsubscribes (mail programs POST to the same URL instead: the server's one click).
 */
function UnsubscribeSubscriptionPage() {
  const [searchParams] = useSearchParams();
  return <UnsubscribeSubscriptionCard token={searchParams.get('token') ?? ''} />;
}

export const unsubscribeSubscriptionScreen: Screen = {
  cache: 'never',
  Component: UnsubscribeSubscriptionPage,
  loader: (queryClient) => async ({ request }) => {
    const token = tokenOf(new URL(request.url));
    if (!token) throw routeError(404, subscriptionTexts.linkNotValid);
    await loadQuery(queryClient, getSubscriptionByTokenQueryOptions(token));
    return null;
  },
  // The canonical path leaves the token out: it is the reader's own.
  meta: () => ({ title: subscriptionTexts.unsubscribe, description: 'Stop e-mails about new blogs.', path: paths.unsubscribeSubscription('') }),
  loadError: 'The subscription could not be loaded.',
  NotFound: SubscriptionLinkNotValid,
};
