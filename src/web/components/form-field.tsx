import { useState, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { messages } from '../../shared/messages';
import { useFieldValue, type FieldChangeHandler } from '../lib/use-field-value';

type ControlProps = Omit<ComponentProps<typeof Form.Control>, 'id' | 'value' | 'defaultValue' | 'ref' | 'onChange' | 'isInvalid'>;

export interface FormFieldProps extends ControlProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The message that marks the field invalid, if any. */
  invalid?: string | null;
}

/**
 * A labelled form control whose error is announced with it: `aria-invalid` and the message
 * linked by `aria-describedby` (react-bootstrap's `isInvalid` only styles the field). What was
 * typed into it before the app hydrated counts (`useFieldValue`).
 */
export function FormField({ id, label, value, onChange, invalid, ...control }: FormFieldProps) {
  const field = useFieldValue(value, (event) => onChange(event.target.value));
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        {...control}
        {...field}
        {...invalidProps(invalid, invalid ? `${id}-error` : undefined)}
      />
      <Form.Control.Feedback type="invalid" id={`${id}-error`}>
        {invalid}
      </Form.Control.Feedback>
    </Form.Group>
  );
}

/**
 * A control's validity, announced as well as styled (react-bootstrap's `isInvalid` only styles it):
 * `aria-invalid` while there is an error, and `aria-describedby` naming the message about it.
 */
export function invalidProps(error: string | null | undefined, describedBy: string | undefined) {
  return { isInvalid: Boolean(error), 'aria-invalid': Boolean(error) || undefined, 'aria-describedby': describedBy };
}

export interface FieldAnswerProps {
  /** The id the field's `aria-describedby` names while there is a failure or an answer. */
  id: string;
  failure: string | null;
  answer: string | null;
  /** Shown while there is neither. */
  hint: ReactNode;
}

/**
 * Under a form of one field: its failure (an alert), else its answer (a status), else the hint. The
 * answer takes the hint's place, so it appears without moving what is under the form.
 */
export function FieldAnswer({ id, failure, answer, hint }: FieldAnswerProps) {
  return (
    <div className="small mt-2">
      {failure ? (
        <p id={id} className="text-danger mb-0" role="alert">
          {failure}
        </p>
      ) : answer ? (
        <p id={id} className="text-success mb-0" role="status">
          {answer}
        </p>
      ) : (
        <p className="text-body-secondary mb-0">{hint}</p>
      )}
    </div>
  );
}

export interface OneFieldFormProps extends Omit<FieldAnswerProps, 'id'> {
  method?: 'post';
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  label: ReactNode;
  /** The field's attributes, its `id` among them. */
  control: ControlProps & { id: string; value: string; onChange: FieldChangeHandler };
  /** The message that marks the field invalid, if any. */
  invalid: string | null;
  answerId: string;
  /** The button's text; while `pending` it reads 'Loading' and waits, as it does until `ready`. */
  button: string;
  pending: boolean;
  ready?: boolean;
}

/**
 * A form of one field: its label, the field and its button on one line, and under them
 * `FieldAnswer`. What was typed into the field before the app hydrated counts (`useFieldValue`).
 */
export function OneFieldForm({ method, onSubmit, label, control, invalid, answerId, button, pending, ready = true, failure, answer, hint }: OneFieldFormProps) {
  const { value, onChange, ...attributes } = control;
  const field = useFieldValue(value, onChange);
  return (
    <Form method={method} noValidate onSubmit={onSubmit} style={{ maxWidth: '36rem' }}>
      <Form.Label htmlFor={control.id}>{label}</Form.Label>
      <div className="d-flex gap-2">
        <Form.Control {...attributes} {...field} {...invalidProps(invalid, failure || answer ? answerId : undefined)} />
        <Button type="submit" className="flex-shrink-0" disabled={!ready || pending}>
          {pending ? messages.loading : button}
        </Button>
      </div>
      <FieldAnswer id={answerId} failure={failure} answer={answer} hint={hint} />
    </Form>
  );
}

/**
 * The own check of a form of one field, before its request: a rejected value shows the schema's
 * first message (or `fallback`) in place of the request's last answer, and an edit clears both.
 * `resetAnswer` forgets that answer (the mutation's `reset`).
 */
export function useFieldCheck(resetAnswer: () => void) {
  const [invalid, setInvalid] = useState<string | null>(null);
  return {
    invalid,
    reject(error: { issues: readonly { message: string }[] }, fallback: string) {
      resetAnswer();
      setInvalid(error.issues[0]?.message ?? fallback);
    },
    accept() {
      setInvalid(null);
    },
    /** The field's `onChange`: `setValue` keeps what was typed, and the message and the answer go. */
    onChange: (setValue: (value: string) => void) => (event: { target: { value: string } }) => {
      setValue(event.target.value);
      setInvalid(null);
      resetAnswer();
    },
  };
}
