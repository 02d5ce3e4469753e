import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './constants.js';
import { messages } from './messages.js';

const passwordTooLong = `Password must be at most ${MAX_PASSWORD_LENGTH} characters`;

/** A new password: the spec's minimum, and an upper bound so hashing stays cheap. */
export const newPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, messages.passwordTooShort)
  .max(MAX_PASSWORD_LENGTH, passwordTooLong);

/** New Password and Confirm Password, as the settings and update-password forms take them. */
export const newPasswordPairSchema = z
  .object({
    newPassword: newPasswordSchema,
    confirmPassword: z.string(),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: messages.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });

/** The settings form: the current password too (DESIGN.md: a change asks for it). */
export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, 'Enter your current password').max(MAX_PASSWORD_LENGTH, passwordTooLong),
    newPassword: newPasswordSchema,
    confirmPassword: z.string(),
    revokeOtherSessions: z.boolean().default(false),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: messages.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** `DELETE /api/account`: the password, for accounts that have one. */
export const deleteAccountSchema = z.object({
  password: z.string().max(MAX_PASSWORD_LENGTH, passwordTooLong).optional(),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;

/** `GET /api/account`. */
export const accountSchema = z.object({
  email: z.string(),
  /** False for accounts made by a magic link or a code, until a password is set by reset. */
  hasPassword: z.boolean(),
});
export type Account = z.infer<typeof accountSchema>;

/** `GET /api/auth-providers`: what the sign-in form offers. */
export const authProvidersSchema = z.object({
  providers: z.array(z.object({ id: z.string(), name: z.string() })),
  emailVerificationRequired: z.boolean(),
});
export type AuthProviders = z.infer<typeof authProvidersSchema>;

/** How recent a session must be to delete an account that has no password. */
export const FRESH_SESSION_MINUTES = 15;

/**
 * How long a proof of who you are (signing in, the password, an authenticator code) counts for
 * adding a way into the account: a passkey, an authenticator app, new backup codes.
 */
export const FRESH_PROOF_MINUTES = 5;
/** The error code of a change that needs a fresh proof first: the page asks for one, then tries again. */
export const FRESH_PROOF_REQUIRED = 'FRESH_PROOF_REQUIRED';

/** `POST /api/account/fresh-proof`: the password, or a code from the authenticator app. */
export const freshProofSchema = z
  .object({
    password: z.string().min(1).max(MAX_PASSWORD_LENGTH, passwordTooLong).optional(),
    code: z.string().trim().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.').optional(),
  })
  .refine((value) => Boolean(value.password) !== Boolean(value.code), { message: 'Enter your password, or a code from your authenticator app.' });
export type FreshProofInput = z.infer<typeof freshProofSchema>;

/** `GET /api/account/sessions`: where the account is signed in. Never a token. */
export const accountSessionSchema = z.object({
  id: z.string(),
  /** "Firefox 133 on Ubuntu", from the user agent; "An unknown browser" without one. */
  device: z.string(),
  /** The address it signed in from, its last part dropped ("203.0.113.*"); null when unknown. */
  address: z.string().nullable(),
  signedInAt: z.string(),
  lastSeenAt: z.string(),
  /** The session of this request: the browser asking. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;
export const accountSessionsSchema = z.object({ items: z.array(accountSessionSchema) });

/** `POST /api/account/not-me`: the token of a new sign-in's e-mail. */
export const notMeInputSchema = z.object({ token: z.string().min(1, 'This link is not complete.').max(500) });
export const NOT_ME_DONE = 'We signed that browser out of your account and sent you an e-mail with a link to choose a new password.';
