import { z } from 'zod';

const uuid = z.uuid();

/**
 * Ids are UUIDs: anything else names nothing, so it gets the answer an unknown id gets
 * (`missing()`, a 404), and never reaches Postgres, which would refuse it as a uuid.
 */
export function parseId(id: string, missing: () => Error): string {
  const parsed = uuid.safeParse(id);
  if (!parsed.success) throw missing();
  return parsed.data;
}
