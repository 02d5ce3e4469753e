import { FormField } from '../../../components/form-field';
import { authTexts } from '../auth-texts';

interface FieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  /** The message that marks the field invalid, if any. */
  invalid?: string | null;
}

export function EmailField(props: FieldProps) {
  return (
    <FormField {...props} label={authTexts.emailLabel} type="email" autoComplete="username" placeholder={authTexts.emailPlaceholder} />
  );
}

export function PasswordField({
  label,
  autoComplete,
  ...props
}: FieldProps & { label: string; autoComplete: 'current-password' | 'new-password' }) {
  return <FormField {...props} label={label} type="password" autoComplete={autoComplete} />;
}
