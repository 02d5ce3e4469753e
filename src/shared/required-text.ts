import { z } from 'zod';

/**
 * A text field the form must not leave empty: trimmed, `missing` (the spec's own message, e.g.
 * 'Please add a title') when nothing is left or it is not text, `tooLong` past `max` characters.
 */
export function requiredText(missing: string, max: number, tooLong: string) {
  return z.string({ message: missing }).trim().min(1, missing).max(max, tooLong);
}
