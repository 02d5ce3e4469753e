import { z } from 'zod';

const uuid = z.uuid();

/** The `:id` of a route's path; what it names is checked by `parseId` or the lookup, which answer 404. */
export const idParams = z.object({ id: z.string() });

/**
 * Ids are UUIDs: anything else names nothing, so it gets the answer an unknown id gets
 * (`missing()`, a 404), and never reaches Postgres, which would refuse it as a uuid.
 */
export function parseId(id: string, missing: () => Error): string {
  const parsed = uuid.safeParse(id);
  if (!parsed.success) throw missing();
  return parsed.data;
}
