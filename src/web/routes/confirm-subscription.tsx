import { useSearchParams } from 'react-router';
import { paths } from '../../shared/paths';
import { getSubscriptionByTokenQueryOptions } from '../features/subscriptions/api/get-subscription-by-token';
import { ConfirmSubscriptionCard, SubscriptionLinkNotValid } from '../features/subscriptions/components/subscription-link-cards';
import { subscriptionTexts } from '../features/subscriptions/subscription-texts';
import { loadQuery, routeError } from '../lib/load-query';
import type { Screen } from '../lib/screen';

const tokenOf = (url: URL) => url.searchParams.get('token') ?? '';

/** /subscription/confirm?token= : where a subscription's confirmation e-mail leads; its button confirms. */
function ConfirmSubscriptionPage() {
  const [searchParams] = useSearchParams();
  return <ConfirmSubscriptionCard token={searchParams.get('token') ?? ''} />;
}

export const confirmSubscriptionScreen: Screen = {
  cache: 'never',
  Component: ConfirmSubscriptionPage,
  // Reading what the link is about changes nothing: a mail scanner's GET confirms no one.
  loader: (queryClient) => async ({ request }) => {
    const token = tokenOf(new URL(request.url));
    if (!token) throw routeError(404, subscriptionTexts.linkNotValid);
    await loadQuery(queryClient, getSubscriptionByTokenQueryOptions(token));
    return null;
  },
  // The canonical path leaves the token out: it is the reader's own.
  meta: () => ({ title: subscriptionTexts.confirm, description: 'Confirm a subscription to new blogs by e-mail.', path: paths.confirmSubscription('') }),
  loadError: 'The subscription could not be loaded.',
  NotFound: SubscriptionLinkNotValid,
};
