import Form from 'react-bootstrap/Form';
import { authTexts } from '../auth-texts';

interface FieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  /** The message that marks the field invalid, if any. */
  invalid?: string | null;
}

export function EmailField({ id, value, onChange, invalid }: FieldProps) {
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{authTexts.emailLabel}</Form.Label>
      <Form.Control
        type="email"
        autoComplete="username"
        placeholder={authTexts.emailPlaceholder}
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

export function PasswordField({
  id,
  label,
  value,
  onChange,
  invalid,
  autoComplete,
}: FieldProps & { label: string; autoComplete: 'current-password' | 'new-password' }) {
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="password"
        autoComplete={autoComplete}
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
