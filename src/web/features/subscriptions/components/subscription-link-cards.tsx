import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { messages } from '../../../../shared/messages';
import { paths } from '../../../../shared/paths';
import type { SubscriptionTarget } from '../../../../shared/subscription-schema';
import { errorMessage } from '../../../lib/api-client';
import { useSubscriptionByToken } from '../api/get-subscription-by-token';
import { useSubscriptionLinkAction, type SubscriptionLinkKind } from '../api/subscription-link-action';
import { subscriptionTexts, targetName } from '../subscription-texts';

interface LinkCardProps {
  heading: string;
  about: ReactNode;
  action: string;
  done: string;
  /** Nothing left to do (a confirmation link opened again): the page says so at once. */
  alreadyDone?: boolean;
  token: string;
  mutation: Pick<UseMutationResult<unknown, Error, string>, 'mutate' | 'isPending' | 'isSuccess' | 'isError' | 'error'>;
}

/**
 * What an e-mail's link opens. Only its button acts: a mail scanner that opens every link in a
 * message (a GET) changes nothing.
 */
function LinkCard({ heading, about, action, done, alreadyDone = false, token, mutation }: LinkCardProps) {
  return (
    <section className="mx-auto" style={{ maxWidth: 480 }} aria-labelledby="subscription-link-heading">
      <h1 id="subscription-link-heading" className="h3 mb-3">
        {heading}
      </h1>
      {mutation.isSuccess || alreadyDone ? (
        <p role="status">{done}</p>
      ) : (
        <>
          <p>{about}</p>
          <Button disabled={mutation.isPending} onClick={() => mutation.mutate(token)}>
            {mutation.isPending ? messages.loading : action}
          </Button>
          {mutation.isError && (
            <p className="text-danger mt-3" role="alert">
              {errorMessage(mutation.error)}
            </p>
          )}
        </>
      )}
    </section>
  );
}

/** What the subscription is to: 'new blogs on the whole site', or 'new blogs by' the author (a link to their page). */
function Target({ target }: { target: SubscriptionTarget }) {
  if (target.kind === 'site') return <>new blogs on {targetName(target)}</>;
  return (
    <>
      new blogs by <Link to={paths.author(target.authorId)}>{targetName(target)}</Link>
    </>
  );
}

/** The two links of subscription e-mails: the confirmation e-mail's, and every e-mail's unsubscribe link. */
const LINK_CARDS: Record<SubscriptionLinkKind, { action: string; done: string; asks: string }> = {
  confirm: { action: subscriptionTexts.confirm, done: subscriptionTexts.confirmed, asks: 'get e-mails at' },
  unsubscribe: { action: subscriptionTexts.unsubscribe, done: subscriptionTexts.unsubscribed, asks: 'stop e-mails to' },
};

/** /subscription/confirm?token= and /subscription/unsubscribe?token= : what the e-mail's link opens. */
export function SubscriptionLinkCard({ kind, token }: { kind: SubscriptionLinkKind; token: string }) {
  const { data: subscription } = useSubscriptionByToken(token);
  const mutation = useSubscriptionLinkAction(kind);
  const { action, done, asks } = LINK_CARDS[kind];
  return (
    <LinkCard
      heading={action}
      about={
        <>
          Press the button to {asks} <strong>{subscription.email}</strong> about <Target target={subscription.target} />.
        </>
      }
      action={action}
      done={done}
      // A confirmation link opened again has nothing left to do.
      alreadyDone={kind === 'confirm' && subscription.confirmed}
      token={token}
      mutation={mutation}
    />
  );
}

/** A link whose token is missing, altered or no longer names a subscription (the API's 404). */
export function SubscriptionLinkNotValid() {
  return (
    <div className="mx-auto py-4" style={{ maxWidth: 480 }}>
      <h1 className="h3">{subscriptionTexts.linkNotValid}</h1>
      <p>
        You can subscribe again from the <Link to={paths.home()}>home page</Link>, and see your subscriptions in{' '}
        <Link to={paths.settings()}>Settings</Link> when you are signed in.
      </p>
    </div>
  );
}
