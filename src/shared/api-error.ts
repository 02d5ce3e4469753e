import { z } from 'zod';

/** The shape of every error the API returns: a stable code and a sentence for people. */
export const apiErrorSchema = z.object({ error: z.string(), message: z.string() });
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
