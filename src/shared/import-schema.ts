import { z } from 'zod';
import { apiErrorSchema } from './api-error.js';

/** The largest export the /import page takes (the command line takes any size). */
export const IMPORT_UPLOAD_MAX_BYTES = 200 * 1024 * 1024;
export const IMPORT_UPLOAD_MAX_LABEL = '200 MB';
/** The kinds of file the /import page takes, for the file input's `accept`. */
export const IMPORT_FILE_TYPES = ['.json', '.xml', '.zip'] as const;

/** What an import did (or, dry, would do): the command line's report, as data. */
export const importReportSchema = z.object({
  format: z.enum(['ghost', 'wordpress', 'markdown']),
  source: z.string(),
  dryRun: z.boolean(),
  posts: z.object({ imported: z.number(), unchanged: z.number(), failed: z.number(), skipped: z.number() }),
  comments: z.object({ imported: z.number(), unchanged: z.number(), skipped: z.number() }),
  accountsCreated: z.array(z.string()),
  images: z.object({ stored: z.number(), remote: z.array(z.string()), missing: z.array(z.string()), failed: z.array(z.string()) }),
  problems: z.array(z.object({ post: z.string(), field: z.string(), message: z.string() })),
  skipped: z.array(z.object({ post: z.string(), reason: z.string() })),
  /** Published for members only in the source: imported as drafts, which their authors may publish. */
  keptPrivate: z.array(z.object({ post: z.string(), reason: z.string() })),
  /** What was done to a post on the way: given to another author (its export named none), a card kept as text. */
  notes: z.array(z.object({ post: z.string(), note: z.string() })),
  /** Lines of the file repaired so it could be read (WordPress XML that is not well-formed). */
  repairs: z.array(z.string()),
});
export type ImportReportBody = z.infer<typeof importReportSchema>;

/** One import started from the /import page, as its status endpoint answers while it runs and after. */
export const importJobSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  dryRun: z.boolean(),
  state: z.enum(['running', 'done', 'failed']),
  /** Posts done of all posts; null while the file is first read through (nothing is written then). */
  progress: z.object({ done: z.number(), total: z.number() }).nullable(),
  report: importReportSchema.nullable(),
  /** Why the import stopped, in the API's error shape (a refused file: nothing was written). */
  error: apiErrorSchema.nullable(),
});
export type ImportJob = z.infer<typeof importJobSchema>;
