import { useState, type FormEvent } from 'react';
import { FEDIVERSE_HANDLE_MESSAGE, followInputSchema } from '../../../../shared/federation-schema';
import { OneFieldForm, useFieldCheck } from '../../../components/form-field';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useFollow } from '../api/follow';

const FIELD_ID = 'fediverse-address';
const ANSWER_ID = `${FIELD_ID}-answer`;

/**
 * 'Fediverse address' and 'Follow'. The shared schema judges the address first, so a bad one is
 * told without a request; the API's answers (no account found there, too many requests) show
 * under the field the same way.
 */
export function FollowForm({ userId }: { userId: string }) {
  const [handle, setHandle] = useState('');
  const follow = useFollow(userId);
  const check = useFieldCheck(follow.reset);
  const { invalid } = check;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = followInputSchema.safeParse({ handle });
    if (!parsed.success) {
      check.reject(parsed.error, FEDIVERSE_HANDLE_MESSAGE);
      return;
    }
    check.accept();
    follow.mutate(parsed.data, { onSuccess: () => setHandle('') });
  };

  // The API's 400 is about the address: it marks the field like the form's own check.
  const fieldError = invalid ?? (follow.error instanceof ApiError && follow.error.status === 400 ? follow.error.message : null);
  const failure = invalid ?? (follow.isError ? errorMessage(follow.error) : null);
  const answer = follow.data ? `You follow ${follow.data.name ?? follow.data.handle} now${follow.data.state === 'pending' ? ', once they approve' : ''}.` : null;

  return (
    <OneFieldForm
      onSubmit={submit}
      label="Fediverse address"
      control={{
        id: FIELD_ID,
        name: 'handle',
        type: 'text',
        autoComplete: 'off',
        autoCapitalize: 'none',
        spellCheck: false,
        placeholder: '@someone@example.social',
        value: handle,
        onChange: check.onChange(setHandle),
      }}
      invalid={fieldError}
      answerId={ANSWER_ID}
      button="Follow"
      pending={follow.isPending}
      failure={failure}
      answer={answer}
      hint="The address of an account on Mastodon or another fediverse site."
    />
  );
}
