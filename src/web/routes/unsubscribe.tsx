import { paths } from '../../shared/paths';
import { UnsubscribeCard } from '../features/comments/components/unsubscribe-card';
import { useLinkToken } from '../lib/link-token';
import type { Screen } from '../lib/screen';

/** /unsubscribe?token= : where the unsubscribe link of an e-mail about comments leads. */
function UnsubscribePage() {
  return <UnsubscribeCard token={useLinkToken()} />;
}

export const unsubscribeScreen: Screen = {
  cache: 'never',
  Component: UnsubscribePage,
  // The canonical path leaves the token out: it is the reader's own.
  meta: () => ({ title: 'Unsubscribe', description: 'Stop e-mails about comments and replies.', path: paths.unsubscribe('') }),
};
