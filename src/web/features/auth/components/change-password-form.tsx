import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { changePasswordSchema } from '../../../../shared/account-schema';
import { messages } from '../../../../shared/messages';
import { useDialog } from '../../../components/message-dialog';
import { useChangePassword } from '../api/change-password';
import { authErrorMessage } from '../auth-texts';
import { NewPasswordFields, PasswordField } from './auth-fields';
import { ErrorNotice } from './form-notices';
import { firstErrorPerField } from '../../../lib/field-errors';

type Field = 'currentPassword' | 'newPassword' | 'confirmPassword';

export function ChangePasswordForm() {
  const [values, setValues] = useState({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const change = useChangePassword();
  const showDialog = useDialog();
  const set = (field: Field) => (value: string) => setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setServerError(null);
    const parsed = changePasswordSchema.safeParse({ ...values, revokeOtherSessions: true });
    if (!parsed.success) {
      setErrors(firstErrorPerField<Field>(parsed.error));
      return;
    }
    setErrors({});
    try {
      await change.mutateAsync(parsed.data);
    } catch (err) {
      // DESIGN.md: a failed change shows its error, and no success popup.
      setServerError(authErrorMessage(err));
      return;
    }
    setValues({ currentPassword: '', newPassword: '', confirmPassword: '' });
    await showDialog({
      title: 'Password Changed',
      // The server ends the other sessions on every change.
      message: `${messages.passwordUpdated}. You are signed out on your other devices.`,
    });
  };

  return (
    <Form noValidate onSubmit={(event) => void submit(event)} aria-labelledby="change-password-heading">
      <PasswordField id="current-password" label="Current Password" value={values.currentPassword} onChange={set('currentPassword')} invalid={errors.currentPassword} autoComplete="current-password" />
      <NewPasswordFields ids={{ newPassword: 'new-password', confirmPassword: 'confirm-password' }} values={values} onChange={set} errors={errors} />
      <p className="small text-body-secondary">Changing your password signs you out on your other devices.</p>
      <Button type="submit" disabled={change.isPending}>
        {change.isPending ? messages.loading : 'Change Password'}
      </Button>
      <ErrorNotice message={serverError} />
    </Form>
  );
}
