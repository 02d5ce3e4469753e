import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { replyInputSchema, type RemotePost } from '../../../../shared/federation-schema';
import { messages } from '../../../../shared/messages';
import { invalidProps, useFieldCheck } from '../../../components/form-field';
import { errorMessage } from '../../../lib/api-client';
import { useFieldValue } from '../../../lib/use-field-value';
import { useSendReply } from '../api/send-reply';

/**
 * A public reply to one remote post, as plain text. The shared schema judges it first (an empty
 * reply is told without a request); after 'Reply sent.' the field is empty for another.
 */
export function ReplyForm({ post, index }: { post: RemotePost; index: number }) {
  const fieldId = `reply-${index}`;
  const answerId = `${fieldId}-answer`;
  const [content, setContent] = useState('');
  const reply = useSendReply();
  // A reply on its way keeps its answer, and its emptying of the field, when the field is typed in.
  const check = useFieldCheck(() => {
    if (!reply.isPending) reply.reset();
  });
  const { invalid } = check;
  const field = useFieldValue(content, check.onChange(setContent));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = replyInputSchema.safeParse({ inReplyTo: post.objectId, content });
    if (!parsed.success) {
      check.reject(parsed.error, 'Write a reply first.');
      return;
    }
    check.accept();
    reply.mutate(parsed.data, { onSuccess: () => setContent('') });
  };

  const failure = invalid ?? (reply.isError ? errorMessage(reply.error) : null);
  return (
    <Form noValidate onSubmit={submit} className="mt-3">
      <Form.Label htmlFor={fieldId} className="small">
        Reply<span className="visually-hidden"> to {post.title || 'this post'}</span>
      </Form.Label>
      <Form.Control
        as="textarea"
        rows={2}
        id={fieldId}
        name="content"
        {...field}
        {...invalidProps(invalid, failure || reply.isSuccess ? answerId : undefined)}
      />
      {failure ? (
        <p id={answerId} className="text-danger small mt-1 mb-0" role="alert">
          {failure}
        </p>
      ) : reply.isSuccess ? (
        <p id={answerId} className="text-success small mt-1 mb-0" role="status">
          Reply sent.
        </p>
      ) : null}
      <Button type="submit" size="sm" className="mt-2" disabled={reply.isPending}>
        {reply.isPending ? messages.loading : 'Send reply'}
      </Button>
    </Form>
  );
}
