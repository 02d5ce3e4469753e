import { FormField } from '../../../components/form-field';
import { authTexts } from '../auth-texts';

interface FieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  /** The message that marks the field invalid, if any. */
  invalid?: string | null;
}

/** The e-mail field; on the sign-in view the browser's suggestions there include the account's passkeys. */
export function EmailField({ passkeyAutofill = false, ...props }: FieldProps & { passkeyAutofill?: boolean }) {
  return (
    <FormField
      {...props}
      label={authTexts.emailLabel}
      type="email"
      autoComplete={passkeyAutofill ? 'username webauthn' : 'username'}
      placeholder={authTexts.emailPlaceholder}
    />
  );
}

export function PasswordField({
  label,
  autoComplete,
  ...props
}: FieldProps & { label: string; autoComplete: 'current-password' | 'new-password' }) {
  return <FormField {...props} label={label} type="password" autoComplete={autoComplete} />;
}

/** A new password and its confirmation, the fields of `newPasswordPairSchema`. */
export interface NewPasswordPair {
  newPassword: string;
  confirmPassword: string;
}

const NEW_PASSWORD_FIELDS = [
  ['newPassword', authTexts.updatePassword.newPasswordLabel],
  ['confirmPassword', authTexts.updatePassword.confirmPasswordLabel],
] as const;

/** The two fields of a new password and its confirmation; `ids` keeps each form's own field ids. */
export function NewPasswordFields({
  ids,
  values,
  onChange,
  errors,
}: {
  ids: NewPasswordPair;
  values: NewPasswordPair;
  onChange: (field: keyof NewPasswordPair) => (value: string) => void;
  errors: Partial<NewPasswordPair>;
}) {
  return NEW_PASSWORD_FIELDS.map(([field, label]) => (
    <PasswordField key={field} id={ids[field]} label={label} value={values[field]} onChange={onChange(field)} invalid={errors[field]} autoComplete="new-password" />
  ));
}
