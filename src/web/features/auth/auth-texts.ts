/**
 * The texts of the sign-in form. The spec quotes some ('Check your email for the magic link',
 * 'Your password has been updated', in `shared/messages.ts`); the rest follow the form kit it
 * describes, so the screens read the same.
 */
export const authTexts = {
  emailLabel: 'Email address',
  emailPlaceholder: 'Your email address',
  signIn: {
    passwordLabel: 'Your Password',
    button: 'Sign in',
    loading: 'Signing in ...',
    link: 'Already have an account? Sign in',
  },
  signUp: {
    passwordLabel: 'Create a Password',
    button: 'Sign up',
    loading: 'Signing up ...',
    link: "Don't have an account? Sign up",
    confirmation: 'Check your email for the confirmation link',
  },
  forgottenPassword: {
    button: 'Send reset password instructions',
    loading: 'Sending reset instructions ...',
    link: 'Forgot your password?',
    confirmation: 'Check your email for the password reset link',
  },
  magicLink: {
    button: 'Send Magic Link',
    loading: 'Sending Magic Link ...',
    link: 'Send a magic link email',
    emptyEmail: 'Email address can not be empty',
  },
  verifyOtp: {
    codeLabel: 'One-time code',
    sendButton: 'Send code',
    sending: 'Sending code ...',
    sent: 'Check your email for the 6-digit code. It works once, for 10 minutes.',
    button: 'Verify code',
    loading: 'Verifying ...',
    link: 'Sign in with a one-time code',
    another: 'Send a new code',
  },
  updatePassword: {
    newPasswordLabel: 'New Password',
    confirmPasswordLabel: 'Confirm Password',
    button: 'Update password',
    loading: 'Updating password ...',
  },
  passkey: {
    button: 'Sign in with a passkey',
    loading: 'Waiting for your passkey ...',
  },
  twoFactor: {
    intro: 'Your account has two-factor authentication on. Enter the 6-digit code your authenticator app shows.',
    backupIntro: 'Enter one of your backup codes. Each works once.',
    codeLabel: 'Authentication code',
    backupLabel: 'Backup code',
    button: 'Verify',
    useBackup: 'Use a backup code instead',
    useApp: 'Use a code from your app instead',
    emptyCode: 'Enter the code first.',
  },
  /** Better Auth's guard against account pre-hijacking, said where it applies. */
  passwordlessNote:
    'Signing in with a link or a code confirms your email address. If the address had not been confirmed before, any password set on it is removed (so nobody who registered your address before you keeps a way in); set a new one with "Forgot your password?".',
} as const;

/** Better Auth's error codes that deserve a fuller sentence than its own message. */
const friendlier: Record<string, string> = {
  EMAIL_NOT_VERIFIED: 'Your email address is not confirmed yet. We have sent you a new confirmation link: open it and press the button on the page.',
  INVALID_OTP: 'That code is not right. Check the e-mail and try again.',
  OTP_EXPIRED: 'This code has expired. Ask for a new one.',
  TOO_MANY_ATTEMPTS: 'Too many wrong codes. Ask for a new code.',
  INVALID_TOKEN: 'This link is invalid, used or expired. Ask for a new one.',
  TOKEN_EXPIRED: 'This link has expired. Ask for a new one.',
  INVALID_CODE: 'That code is not right. Check your app (or the backup code) and try again.',
  INVALID_BACKUP_CODE: 'That backup code is not right, or it has been used already.',
  INVALID_TWO_FACTOR_COOKIE: 'This sign-in has expired. Please sign in again.',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: 'Too many wrong codes for this sign-in. Please sign in again.',
  ACCOUNT_TEMPORARILY_LOCKED: 'Too many wrong codes for this account. It is locked for 15 minutes: try again later.',
};

export function authErrorMessage(error: unknown): string {
  const code = (error as { code?: string } | null)?.code;
  if (code && friendlier[code]) return friendlier[code];
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Please try again.';
}
