import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { FEDIVERSE_HANDLE_MESSAGE, followInputSchema } from '../../../../shared/federation-schema';
import { messages } from '../../../../shared/messages';
import { FieldAnswer, invalidProps } from '../../../components/form-field';
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
  const [invalid, setInvalid] = useState<string | null>(null);
  const follow = useFollow(userId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = followInputSchema.safeParse({ handle });
    if (!parsed.success) {
      follow.reset();
      setInvalid(parsed.error.issues[0]?.message ?? FEDIVERSE_HANDLE_MESSAGE);
      return;
    }
    setInvalid(null);
    follow.mutate(parsed.data, { onSuccess: () => setHandle('') });
  };

  // The API's 400 is about the address: it marks the field like the form's own check.
  const fieldError = invalid ?? (follow.error instanceof ApiError && follow.error.status === 400 ? follow.error.message : null);
  const failure = invalid ?? (follow.isError ? errorMessage(follow.error) : null);
  const answer = follow.data ? `You follow ${follow.data.name ?? follow.data.handle} now${follow.data.state === 'pending' ? ', once they approve' : ''}.` : null;

  return (
    <Form noValidate onSubmit={submit} style={{ maxWidth: '36rem' }}>
      <Form.Label htmlFor={FIELD_ID}>Fediverse address</Form.Label>
      <div className="d-flex gap-2">
        <Form.Control
          id={FIELD_ID}
          name="handle"
          type="text"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="@someone@example.social"
          value={handle}
          onChange={(event) => {
            setHandle(event.target.value);
            setInvalid(null);
            follow.reset();
          }}
          {...invalidProps(fieldError, failure || answer ? ANSWER_ID : undefined)}
        />
        <Button type="submit" className="flex-shrink-0" disabled={follow.isPending}>
          {follow.isPending ? messages.loading : 'Follow'}
        </Button>
      </div>
      <FieldAnswer id={ANSWER_ID} failure={failure} answer={answer} hint="The address of an account on Mastodon or another fediverse site." />
    </Form>
  );
}
