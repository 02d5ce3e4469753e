import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { commentBodySchema } from '../../../../shared/comment-schema';
import { messages } from '../../../../shared/messages';
import { FormField } from '../../../components/form-field';
import { errorMessage } from '../../../lib/api-client';

export interface CommentFormProps {
  id: string;
  label: string;
  submitLabel: string;
  initialBody?: string;
  /** Sends the text; a thrown error shows under the form and keeps the text. */
  onSubmit: (body: string) => Promise<unknown>;
  onCancel?: () => void;
  /** The text is cleared after a successful send (a new comment), or kept (an edit that closes). */
  clearOnSuccess?: boolean;
  autoFocus?: boolean;
}

/**
 * One form for a new comment, a reply and an edit. The shared schema judges the text first, so
 * an empty one shows 'Add a comment!' on the field (marked invalid) without a request.
 */
export function CommentForm({ id, label, submitLabel, initialBody = '', onSubmit, onCancel, clearOnSuccess = false, autoFocus }: CommentFormProps) {
  const [body, setBody] = useState(initialBody);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = commentBodySchema.safeParse(body);
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message ?? messages.addComment);
      return;
    }
    setInvalid(null);
    setFailure(null);
    setPending(true);
    try {
      await onSubmit(parsed.data);
      if (clearOnSuccess) setBody('');
    } catch (err) {
      setFailure(errorMessage(err));
    } finally {
      setPending(false);
    }
  };

  return (
    <Form noValidate onSubmit={(event) => void submit(event)} className="comment-form">
      <FormField
        id={id}
        label={label}
        as="textarea"
        rows={3}
        value={body}
        onChange={(value) => {
          setBody(value);
          if (invalid) setInvalid(null);
        }}
        invalid={invalid}
        autoFocus={autoFocus}
      />
      {failure && (
        <p className="text-danger" role="alert">
          {failure}
        </p>
      )}
      <div className="d-flex gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? messages.loading : submitLabel}
        </Button>
        {onCancel && (
          <Button variant="outline-secondary" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
        )}
      </div>
    </Form>
  );
}
