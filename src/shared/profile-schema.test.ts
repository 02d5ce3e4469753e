import { describe, expect, it } from 'vitest';
import { defaultHandleBase, isHandleFromEmail, profileInputSchema, profileTexts } from './profile-schema.js';

const firstMessage = (input: unknown) => {
  const parsed = profileInputSchema.safeParse(input);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
};

describe('the profile schema (the form and PUT /api/account/profile)', () => {
  it('lowercases and trims the handle, and makes empty texts none', () => {
    expect(profileInputSchema.parse({ handle: ' Ada_99 ', displayName: '  ', bio: '' })).toEqual({ handle: 'ada_99', displayName: null, bio: null });
    expect(profileInputSchema.parse({ handle: 'ada', displayName: ' Ada\t\nL. ', bio: 'a\r\nb' })).toEqual({ handle: 'ada', displayName: 'Ada L.', bio: 'a\nb' });
  });

  it.each([
    [{ handle: '' }, profileTexts.handleMissing],
    [{ handle: 'ab' }, profileTexts.handleTooShort],
    [{ handle: 'a'.repeat(31) }, profileTexts.handleTooLong],
    [{ handle: 'a.b.c' }, profileTexts.handleCharacters],
    [{ handle: 'ok_handle', displayName: 'x'.repeat(81) }, profileTexts.displayNameTooLong],
    [{ handle: 'ok_handle', bio: 'x'.repeat(501) }, profileTexts.bioTooLong],
  ])('refuses %j: %s', (input, message) => {
    expect(firstMessage(input)).toBe(message);
  });
});

describe('the handle made from an e-mail', () => {
  it('follows the database trigger: lowercase, other characters as _, at most 24, at least 3', () => {
    expect(defaultHandleBase('Mary.Jane+x@example.com')).toBe('mary_jane_x');
    expect(defaultHandleBase('jo@example.com')).toBe('jo_');
    expect(defaultHandleBase(`${'a'.repeat(40)}@example.com`)).toBe('a'.repeat(24));
    expect(defaultHandleBase('zoë@example.com')).toBe('zo_');
  });

  it('is recognised with or without the number that kept it unique, and a chosen one is not', () => {
    expect(isHandleFromEmail('bob', 'bob@example.com')).toBe(true);
    expect(isHandleFromEmail('bob_2', 'bob@example.com')).toBe(true);
    expect(isHandleFromEmail('bob_12', 'Bob@example.com')).toBe(true);
    expect(isHandleFromEmail('bobby', 'bob@example.com')).toBe(false);
    expect(isHandleFromEmail('bob_1', 'bob@example.com')).toBe(false);
    expect(isHandleFromEmail('bob_x', 'bob@example.com')).toBe(false);
  });
});
