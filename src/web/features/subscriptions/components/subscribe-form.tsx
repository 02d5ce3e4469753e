import { useId, useState, type FormEvent } from 'react';
import { OneFieldForm, useFieldCheck } from '../../../components/form-field';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { useHydrated } from '../../../lib/use-hydrated';
import { useSubscribe } from '../api/subscribe';
import { subscriptionTexts } from '../subscription-texts';

/**
 * The shared schema (and zod with it) loads when the reader first needs it: the home page carries
 * no zod (docs/page-weight.md), and focusing the field fetches it before the click.
 */
const loadSchema = () => import('../../../../shared/subscription-schema');

export interface SubscribeFormProps {
  /** An author's id: their new blogs. None: every new blog on the site. */
  authorId?: string;
}

/**
 * 'Email address' and 'Subscribe', rendered by the server like the rest of the page (no shift when
 * it hydrates). A signed-in reader finds their own address filled in once the session is known;
 * the shared schema judges the address first, so a bad one is told without a request.
 */
export function SubscribeForm({ authorId }: SubscribeFormProps) {
  const id = useId();
  const fieldId = `${id}-email`;
  const answerId = `${id}-answer`;
  const headingId = `${id}-heading`;
  const { data: session } = useSession();
  const hydrated = useHydrated();
  // What the reader typed; until they type, their own address (when signed in).
  const [typed, setTyped] = useState<string | null>(null);
  const email = typed ?? session?.user.email ?? '';
  const subscribe = useSubscribe(session?.user.id ?? null);
  const check = useFieldCheck(subscribe.reset);
  const { invalid } = check;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { subscribeInputSchema, INVALID_SUBSCRIPTION_EMAIL } = await loadSchema();
    const parsed = subscribeInputSchema.safeParse({ email, authorId });
    if (!parsed.success) {
      check.reject(parsed.error, INVALID_SUBSCRIPTION_EMAIL);
      return;
    }
    check.accept();
    subscribe.mutate(parsed.data);
  };

  // The server's 400 is about the address too: it marks the field like the form's own check.
  const fieldError = invalid ?? (subscribe.error instanceof ApiError && subscribe.error.status === 400 ? subscribe.error.message : null);
  const failure = subscribe.isError ? errorMessage(subscribe.error) : invalid;
  const answer = subscribe.data?.status === 'subscribed' ? subscriptionTexts.subscribed : subscribe.data ? subscriptionTexts.pending : null;

  return (
    <section className="border-top pt-4 mt-4" aria-labelledby={headingId}>
      <h2 id={headingId} className="h5">
        {authorId ? 'Get this author’s new blogs by e-mail' : 'Get new blogs by e-mail'}
      </h2>
      {/*
        Only the scripts send it: until they run, the button waits, and `post` keeps an address
        pressed in by Enter out of the URL (and so out of logs and caches).
      */}
      <OneFieldForm
        method="post"
        onSubmit={(event) => void submit(event)}
        label={subscriptionTexts.emailLabel}
        control={{ id: fieldId, type: 'email', name: 'email', autoComplete: 'email', value: email, onFocus: () => void loadSchema(), onChange: check.onChange(setTyped) }}
        invalid={fieldError}
        answerId={answerId}
        button={subscriptionTexts.subscribe}
        pending={subscribe.isPending}
        ready={hydrated}
        failure={failure}
        answer={answer}
        hint="You can unsubscribe at any time, from any of the e-mails."
      />
    </section>
  );
}
