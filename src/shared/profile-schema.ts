import { z } from 'zod';

/** A handle: the public name an account is found by (`/author`, and the fediverse's `@handle@host`). */
export const HANDLE_MIN_LENGTH = 3;
export const HANDLE_MAX_LENGTH = 30;
export const DISPLAY_NAME_MAX_LENGTH = 80;
export const BIO_MAX_LENGTH = 500;

export const profileTexts = {
  handleMissing: 'Choose a handle.',
  handleTooShort: `A handle needs at least ${HANDLE_MIN_LENGTH} characters.`,
  handleTooLong: `A handle can have at most ${HANDLE_MAX_LENGTH} characters.`,
  handleCharacters: 'A handle may hold only letters a–z, digits and _.',
  displayNameTooLong: `Keep the display name under ${DISPLAY_NAME_MAX_LENGTH} characters.`,
  bioTooLong: `Keep the bio under ${BIO_MAX_LENGTH} characters.`,
  handleTaken: 'That handle is taken.',
  saved: 'Profile saved.',
} as const;

/**
 * A handle as typed: trimmed and lowercased first (so 'Bob' is 'bob'), then held to the rule the
 * database checks too (`^[a-z0-9_]{3,30}$`).
 */
export const handleSchema = z
  .string({ message: profileTexts.handleMissing })
  .trim()
  .toLowerCase()
  .min(1, profileTexts.handleMissing)
  .min(HANDLE_MIN_LENGTH, profileTexts.handleTooShort)
  .max(HANDLE_MAX_LENGTH, profileTexts.handleTooLong)
  .regex(/^[a-z0-9_]*$/, profileTexts.handleCharacters);

/** An optional text of the profile: trimmed; empty, missing or null are all "none" (null). */
function optionalText(max: number, tooLong: string, clean: (text: string) => string = (text) => text) {
  return z
    .string()
    .trim()
    .max(max, tooLong)
    .nullish()
    .transform((value) => (value ? clean(value) : null));
}

/** `PUT /api/account/profile`: the whole profile (a missing display name or bio is none). */
export const profileInputSchema = z.object({
  handle: handleSchema,
  // One line: the name shows in headings and beside the handle.
  displayName: optionalText(DISPLAY_NAME_MAX_LENGTH, profileTexts.displayNameTooLong, (text) => text.replace(/\s+/g, ' ')),
  // Plain text; its line breaks are kept and shown as they are.
  bio: optionalText(BIO_MAX_LENGTH, profileTexts.bioTooLong, (text) => text.replace(/\r\n?/g, '\n')),
});
export type ProfileInput = z.output<typeof profileInputSchema>;
export type ProfileRequest = z.input<typeof profileInputSchema>;

/** A profile as everyone may see it (the author page), never the e-mail. */
export const publicProfileSchema = z.object({
  handle: z.string(),
  displayName: z.string().nullable(),
  bio: z.string().nullable(),
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

/** `GET` and `PUT /api/account/profile`: the owner's own, and whether the handle is still the one made from the e-mail. */
export const ownProfileSchema = publicProfileSchema.extend({
  handleFromEmail: z.boolean(),
});
export type OwnProfile = z.infer<typeof ownProfileSchema>;

/**
 * The handle a new account gets from its e-mail's local part, before any `_2`, `_3` that keeps it
 * unique: the same rule as the database's trigger (migration 2026-11-26-01), which makes it.
 */
export function defaultHandleBase(email: string): string {
  const base = (email.split('@')[0] ?? '').toLowerCase().replace(/[^a-z0-9_]/gu, '_').slice(0, 24);
  return base.length < HANDLE_MIN_LENGTH ? base.padEnd(HANDLE_MIN_LENGTH, '_') : base;
}

/** Whether `handle` is the one made from `email` (its base, or the base with a number that kept it unique). */
export function isHandleFromEmail(handle: string, email: string): boolean {
  const base = defaultHandleBase(email);
  return handle === base || new RegExp(`^${base}_([2-9]|[1-9][0-9]+)$`).test(handle);
}
