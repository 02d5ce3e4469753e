import type { z } from 'zod';

/** A form's messages from a failed parse of its schema: the first message of each field, by the field's name. */
export function firstErrorPerField<Field extends string>(error: z.ZodError): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of error.issues) errors[issue.path[0] as Field] ??= issue.message;
  return errors;
}
