import type { ComponentProps, ReactNode } from 'react';
import Form from 'react-bootstrap/Form';

type ControlProps = Omit<ComponentProps<typeof Form.Control>, 'id' | 'value' | 'onChange' | 'isInvalid'>;

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
 * linked by `aria-describedby` (react-bootstrap's `isInvalid` only styles the field).
 */
export function FormField({ id, label, value, onChange, invalid, ...control }: FormFieldProps) {
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        {...control}
        value={value}
        onChange={(event) => onChange(event.target.value)}
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
