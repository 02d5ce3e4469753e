import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { RenderedMarkdown } from '../markdown/render-markdown.js';
import { renderBlogBody } from '../core/blog-body.js';
import { selectInlineImageSizes } from '../core/inline-images.repository.js';
import { inlineImageKeysOf } from '../core/inline-images.js';
import type { ImageStorage } from '../storage/storage.js';
import { lockBlogsWithoutExcerpt, lockUnrenderedBlogs, saveBlogExcerpt, saveBlogRendering } from './blogs.repository.js';

/**
 * How a blog is rendered when it is saved (and previewed): its images uploaded from the editor get
 * their width and height, so the page keeps their room while they load. Also answers the storage
 * keys of the site's images the text shows (refusing more than the maximum, see `inlineImageKeysOf`).
 */
export async function renderBlogWithImages(
  deps: { db: Kysely<Database>; storage: Pick<ImageStorage, 'publicBaseUrl' | 'publicUrl'> },
  body: string,
): Promise<{ rendered: RenderedMarkdown; inlineKeys: string[] }> {
  const rendered = renderBlogBody(body, deps.storage);
  const inlineKeys = inlineImageKeysOf(rendered, deps.storage);
  const sizes = await selectInlineImageSizes(deps.db, inlineKeys);
  if (sizes.length === 0) return { rendered, inlineKeys };
  const byUrl = new Map(sizes.map((size) => [deps.storage.publicUrl(size.key), { width: size.width, height: size.height }]));
  return { rendered: renderBlogBody(body, deps.storage, byUrl), inlineKeys };
}

export const BACKFILL_BATCH_SIZE = 200;

/**
 * Renders, in batches of one transaction each, the blogs written before Markdown was rendered
 * on write (their `html` is null), then makes again the excerpts cleared when their shape
 * changed (migration 2026-11-25-05: blocks kept apart). Run at start-up; a second run finds
 * nothing to do. Returns how many blogs this call rendered or gave a new excerpt.
 */
export async function renderUnrenderedBlogs(
  deps: { db: Kysely<Database>; storage: Pick<ImageStorage, 'publicBaseUrl'>; log: FastifyBaseLogger },
  batchSize = BACKFILL_BATCH_SIZE,
): Promise<number> {
  const rendered = await inBatches(deps, batchSize, 'rendered', 'rendering the Markdown of blogs written before it was rendered on save', async (trx) => {
    const rows = await lockUnrenderedBlogs(trx, batchSize);
    for (const row of rows) await saveBlogRendering(trx, row.id, renderBlogBody(row.body, deps.storage));
    return rows.length;
  });
  if (rendered > 0) deps.log.info({ rendered }, 'rendered the Markdown of older blogs');
  const excerpts = await inBatches(deps, batchSize, 'excerpts', 'making the excerpts of older blogs again', async (trx) => {
    const rows = await lockBlogsWithoutExcerpt(trx, batchSize);
    for (const row of rows) await saveBlogExcerpt(trx, row.id, renderBlogBody(row.body, deps.storage).excerpt);
    return rows.length;
  });
  if (excerpts > 0) deps.log.info({ excerpts }, 'made the excerpts of older blogs again');
  return rendered + excerpts;
}

/** Runs `batch` (one transaction each) until a short batch; logs the running total. */
async function inBatches(
  deps: { db: Kysely<Database>; log: FastifyBaseLogger },
  batchSize: number,
  counted: string,
  message: string,
  batch: (trx: Transaction<Database>) => Promise<number>,
): Promise<number> {
  let done = 0;
  for (;;) {
    const count = await deps.db.transaction().execute(batch);
    if (count === 0) break;
    done += count;
    deps.log.info({ [counted]: done }, message);
    // A short batch is the last one (rows locked by another process starting now are its to do).
    if (count < batchSize) break;
  }
  return done;
}
