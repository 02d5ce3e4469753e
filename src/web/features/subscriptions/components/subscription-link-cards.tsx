import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { messages } from '../../../../shared/messages';
import { paths } from '../../../../shared/paths';
import type { SubscriptionTarget } from '../../../../shared/subscription-schema';
import { errorMessage } from '../../../lib/api-client';
import { useConfirmSubscription } from '../api/confirm-subscription';
import { useSubscriptionByToken } from '../api/get-subscription-by-token';
import { useUnsubscribeWithToken } from '../api/unsubscribe-with-token';
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

/** /subscription/confirm?token= : the confirmation e-mail's link. */
export function ConfirmSubscriptionCard({ token }: { token: string }) {
  const { data: subscription } = useSubscriptionByToken(token);
  const confirm = useConfirmSubscription();
  return (
    <LinkCard
      heading={subscriptionTexts.confirm}
      about={
        <>
          Press the button to get e-mails at <strong>{subscription.email}</strong> about <Target target={subscription.target} />.
        </>
      }
      action={subscriptionTexts.confirm}
      done={subscriptionTexts.confirmed}
      alreadyDone={subscription.confirmed}
      token={token}
      mutation={confirm}
    />
  );
}

/** /subscription/unsubscribe?token= : the unsubscribe link of every subscription e-mail. */
export function UnsubscribeSubscriptionCard({ token }: { token: string }) {
  const { data: subscription } = useSubscriptionByToken(token);
  const unsubscribe = useUnsubscribeWithToken();
  return (
    <LinkCard
      heading={subscriptionTexts.unsubscribe}
      about={
        <>
          Press the button to stop e-mails to <strong>{subscription.email}</strong> about <Target target={subscription.target} />.
        </>
      }
      action={subscriptionTexts.unsubscribe}
      done={subscriptionTexts.unsubscribed}
      token={token}
      mutation={unsubscribe}
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
