import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { REVIEW_NOTE_MAX_LENGTH, sendBackSchema } from '../../../../shared/posts-schema';
import { errorMessage } from '../../../lib/api-client';
import { useReviewState, useSendBack } from '../api/review';

export const REVIEW_TEXTS = {
  submittedBy: (name: string, email: string, when: string) => `Submitted for review by ${name} (${email}) on ${when}.`,
  notSubmitted: (name: string, email: string) => `A draft by ${name} (${email}); it is not submitted for review.`,
  publishHint: "'Publish' below publishes it; its writer is told by e-mail.",
  sendBack: 'Send back',
  note: 'Note',
  noteHelp: 'What should the writer change? They receive it by e-mail.',
  sentBack: 'The draft was sent back to its writer with your note.',
} as const;

/**
 * Issue 59: an editor opening someone else's draft sees who submitted it and when, and may send
 * it back with a note (required); 'Publish' of the form publishes it.
 */
export function ReviewPanel({ blogId, onSentBack }: { blogId: string; onSentBack: () => Promise<void> }) {
  const review = useReviewState(blogId, true);
  const sendBack = useSendBack();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!review.data) return null;
  const { submittedAt, submittedBy } = review.data;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = sendBackSchema.safeParse({ note });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Write a note.');
    setError(null);
    try {
      await sendBack.mutateAsync({ id: blogId, note: parsed.data.note });
      await onSentBack();
    } catch (thrown) {
      setError(errorMessage(thrown));
    }
  };

  return (
    <section aria-label="Review" className="border rounded p-3 mb-3">
      <p className="mb-2">
        {submittedAt
          ? REVIEW_TEXTS.submittedBy(submittedBy.name, submittedBy.email, new Date(submittedAt).toLocaleString())
          : REVIEW_TEXTS.notSubmitted(submittedBy.name, submittedBy.email)}
      </p>
      {submittedAt && (
        <>
          <p className="mb-3">{REVIEW_TEXTS.publishHint}</p>
          <Form noValidate onSubmit={(event) => void submit(event)}>
            <Form.Group className="mb-3" controlId="review-note">
              <Form.Label>{REVIEW_TEXTS.note}</Form.Label>
              <Form.Control
                as="textarea"
                rows={3}
                required
                maxLength={REVIEW_NOTE_MAX_LENGTH}
                value={note}
                onChange={(event) => setNote(event.target.value)}
                isInvalid={error !== null}
                aria-describedby={error ? 'review-note-error' : 'review-note-help'}
              />
              <Form.Text id="review-note-help">{REVIEW_TEXTS.noteHelp}</Form.Text>
              <Form.Control.Feedback type="invalid" id="review-note-error">
                {error}
              </Form.Control.Feedback>
            </Form.Group>
            <Button type="submit" variant="secondary" disabled={sendBack.isPending}>
              {REVIEW_TEXTS.sendBack}
            </Button>
          </Form>
        </>
      )}
    </section>
  );
}
