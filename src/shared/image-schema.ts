import { z } from 'zod';

/** A stored image: where it is served from (site-relative with local storage, absolute with S3) and its size in pixels. */
export const sizedImageSchema = z.object({
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
