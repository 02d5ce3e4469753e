import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { contactSchema } from '../../../../shared/contact-schema';
import { messages } from '../../../../shared/messages';
import { FormField } from '../../../components/form-field';
import { useDialog } from '../../../components/message-dialog';
import { errorMessage } from '../../../lib/api-client';
import { useSendContactMessage } from '../api/send-contact-message';

type Errors = Partial<Record<'email' | 'message', string>>;

export function ContactForm() {
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [sentOnce, setSentOnce] = useState(false);
  const send = useSendContactMessage();
  const showDialog = useDialog();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = contactSchema.safeParse({ email, message });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof Errors;
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      const result = await send.mutateAsync(parsed.data);
      setMessage('');
      await showDialog({ title: 'Message sent', message: result.message });
    } catch (err) {
      await showDialog({ title: messages.anErrorOccurred, message: errorMessage(err) });
    } finally {
      setSentOnce(true);
    }
  };

  return (
    <Form noValidate onSubmit={(event) => void submit(event)} aria-labelledby="contact-heading">
      <FormField
        id="contact-email"
        label="Email address"
        type="email"
        autoComplete="email"
        value={email}
        onChange={setEmail}
        invalid={errors.email}
      />
      <FormField
        id="contact-message"
        label="Your Message"
        as="textarea"
        rows={5}
        value={message}
        onChange={setMessage}
        invalid={errors.message}
      />
      <Button type="submit" disabled={send.isPending}>
        {send.isPending ? messages.loading : sentOnce ? 'send message' : 'Submit'}
      </Button>
    </Form>
  );
}
