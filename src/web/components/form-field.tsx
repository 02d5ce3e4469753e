import type { ComponentProps } from 'react';
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
        isInvalid={Boolean(invalid)}
        aria-invalid={Boolean(invalid) || undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
      />
      <Form.Control.Feedback type="invalid" id={`${id}-error`}>
        {invalid}
      </Form.Control.Feedback>
    </Form.Group>
  );
}
