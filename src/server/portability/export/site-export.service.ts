import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { once } from 'node:events';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { PRIVATE_FILE_MODE } from '../../db/private-files.js';
import type { ImageStorage } from '../../storage/storage.js';
import { selectBlogAuthors, selectBlogBatch, selectCommentBatch, selectInlineImageKeys } from './site-export.repository.js';
import { slugify } from '../../../shared/slug.js';
import { newZip, writePrivateZip } from '../private-zip.js';

export interface ExportDeps {
  db: Kysely<Database>;
  storage: ImageStorage;
}

export interface ExportSummary {
  posts: number;
  users: number;
  tags: number;
  comments: number;
  images: number;
  /** Images the database names that storage no longer has (written as empty files). */
  missingImages: string[];
}

/** The folder of a Ghost export zip its importer reads images from. */
export const GHOST_IMAGES_DIR = 'content/images/';
export const EXPORT_JSON_NAME = 'blogging-site.ghost.json';
const BATCH = 500;

/**
 * The whole site as one zip Ghost's importer (Settings → Labs → Import) accepts: a Ghost JSON
 * export (`db[0].meta` and `data`: `posts` with their HTML, `users` (the blogs' authors), `tags`,
 * `posts_tags`, `posts_authors`) and, beside it, `content/images/` with every blog's images, the
 * posts' URLs pointing there through Ghost's `__GHOST_URL__`. Two tables of our own ride along,
 * which Ghost ignores and our import reads: `blogging_site_markdown` (each post's Markdown, so
 * a round trip through our import keeps the text as written, not as re-converted from HTML) and
 * `blogging_site_comments` (Ghost's importer takes no comments). Posts carry `html` only, no
 * `mobiledoc`/`lexical`: Ghost's importer converts HTML itself when they are missing.
 *
 * The JSON is streamed to a temporary file batch by batch, and each image is read from storage
 * only when the zip reaches it, so memory stays flat however large the site.
 */
export async function writeSiteExport(deps: ExportDeps, outFile: string, now = new Date()): Promise<ExportSummary> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'site-export-'));
  try {
    const jsonFile = path.join(work, EXPORT_JSON_NAME);
    const { summary, imageKeys } = await writeGhostJson(deps, jsonFile, now);
    const zip = newZip();
    zip.addFile(jsonFile, EXPORT_JSON_NAME);
    for (const key of imageKeys) {
      // Already WebP: stored, not compressed again.
      zip.addReadStreamLazy(`${GHOST_IMAGES_DIR}${key}`, { compress: false }, (callback) => {
        deps.storage.get(key).then(
          (data) => {
            if (!data) summary.missingImages.push(key);
            callback(null, Readable.from([data ?? Buffer.alloc(0)]));
          },
          (err: unknown) => callback(err, Readable.from([])),
        );
      });
    }
    // Drafts and the authors' e-mails are inside: for the owner only, as backups are.
    await writePrivateZip(zip, outFile);
    summary.images = imageKeys.length - summary.missingImages.length;
    return summary;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Our stored image URL in a text as the Ghost export names it. */
function ghostImageUrls(text: string, storage: ImageStorage): string {
  return text.replaceAll(storage.publicBaseUrl + 'blogs/', `__GHOST_URL__/${GHOST_IMAGES_DIR}blogs/`);
}

async function writeGhostJson(deps: ExportDeps, file: string, now: Date) {
  const out = createWriteStream(file, { mode: PRIVATE_FILE_MODE });
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const summary: ExportSummary = { posts: 0, users: 0, tags: 0, comments: 0, images: 0, missingImages: [] };
  const imageKeys: string[] = [];
  const tags = new Set<string>();
  const postTags: { post_id: string; tag: string; sort_order: number }[] = [];
  const postAuthors: { post_id: string; author_id: string }[] = [];
  const markdown: { post_id: string; markdown: string }[] = [];

  await write(`{"db":[{"meta":${JSON.stringify({ exported_on: now.getTime(), version: '5.0.0', exported_by: 'blogging-site' })},"data":{"posts":[`);
  let after: string | null = null;
  for (;;) {
    const rows = await selectBlogBatch(deps.db, after, BATCH);
    if (rows.length === 0) break;
    const inline = await selectInlineImageKeys(deps.db, rows.map((row) => row.id));
    for (const image of inline) imageKeys.push(image.key);
    for (const row of rows) {
      if (row.image_key) imageKeys.push(row.image_key);
      const published = row.status === 'published';
      const post = {
        id: row.id,
        uuid: row.id,
        title: row.title,
        slug: `${slugify(row.title, 60, 'post')}-${row.id.slice(0, 8)}`,
        html: ghostImageUrls(row.html ?? '', deps.storage),
        mobiledoc: null,
        lexical: null,
        feature_image: row.image_key ? `__GHOST_URL__/${GHOST_IMAGES_DIR}${row.image_key}` : null,
        featured: 0,
        type: 'post',
        status: published ? 'published' : 'draft',
        visibility: 'public',
        custom_excerpt: null,
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
        published_at: published ? row.created_at.toISOString() : null,
      };
      await write(`${summary.posts > 0 ? ',' : ''}${JSON.stringify(post)}`);
      summary.posts += 1;
      row.tags.forEach((tag, index) => {
        tags.add(tag);
        postTags.push({ post_id: row.id, tag, sort_order: index });
      });
      postAuthors.push({ post_id: row.id, author_id: row.user_id });
      markdown.push({ post_id: row.id, markdown: ghostImageUrls(row.body, deps.storage) });
    }
    after = rows.at(-1)!.id;
  }
  const authors = await selectBlogAuthors(deps.db);
  summary.users = authors.length;
  summary.tags = tags.size;
  const users = authors.map((user) => ({
    id: user.id,
    name: user.name || user.email.split('@')[0],
    slug: `${slugify(user.name || user.email.split('@')[0]!, 60, 'post')}-${user.id.slice(0, 6).toLowerCase()}`,
    email: user.email,
    status: 'active',
    created_at: new Date(user.createdAt).toISOString(),
    updated_at: new Date(user.updatedAt).toISOString(),
  }));
  await write(`],"users":${JSON.stringify(users)}`);
  await write(`,"tags":${JSON.stringify([...tags].map((tag) => ({ id: `tag-${tag}`, name: tag, slug: tag, visibility: 'public' })))}`);
  await write(`,"posts_tags":${JSON.stringify(postTags.map((row, i) => ({ id: `pt-${i}`, post_id: row.post_id, tag_id: `tag-${row.tag}`, sort_order: row.sort_order })))}`);
  await write(`,"posts_authors":${JSON.stringify(postAuthors.map((row, i) => ({ id: `pa-${i}`, post_id: row.post_id, author_id: row.author_id, sort_order: 0 })))}`);
  await write(`,"blogging_site_markdown":[`);
  for (let i = 0; i < markdown.length; i += 1) await write(`${i > 0 ? ',' : ''}${JSON.stringify(markdown[i])}`);
  await write(`],"blogging_site_comments":[`);
  after = null;
  for (;;) {
    const rows = await selectCommentBatch(deps.db, after, BATCH);
    if (rows.length === 0) break;
    for (const row of rows) {
      const comment = {
        id: row.id,
        post_id: row.blog_id,
        parent_id: row.parent_id,
        author_email: row.email,
        author_name: row.name,
        markdown: row.body,
        html: row.html,
        created_at: row.created_at.toISOString(),
      };
      await write(`${summary.comments > 0 ? ',' : ''}${JSON.stringify(comment)}`);
      summary.comments += 1;
    }
    after = rows.at(-1)!.id;
  }
  await write(']}}]}');
  out.end();
  await once(out, 'close');
  return { summary, imageKeys };
}
