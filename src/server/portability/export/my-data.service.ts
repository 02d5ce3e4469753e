import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { stringify as toYaml } from 'yaml';
import type { Database } from '../../db/schema.js';
import type { ImageStorage } from '../../storage/storage.js';
import { selectAccountRow, selectOwnBlogs, selectOwnComments, selectOwnInlineImageKeys, selectOwnVotes } from './my-data.repository.js';
import { slugify } from '../../../shared/slug.js';
import { newZip } from '../private-zip.js';

export interface MyDataDeps {
  db: Kysely<Database>;
  storage: ImageStorage;
}

const README = `Your data from this site (the GDPR's right to data portability).

blogs/     one Markdown file per blog, with YAML front matter (title, date, draft, tags, image):
           the format Jekyll, Hugo and Eleventy read, and this site's own import
           (npm run import -- <this zip> --owner <your e-mail>)
images/    your cover images and the images you put inside your texts (WebP)
comments.json  your comments, with the blog each is on
votes.json     your votes
account.json   your e-mail address, name and when you joined
`;

/**
 * One reader's own data as a zip, streamed as it is made (each image read from storage when the zip
 * reaches it). Texts point at their images by relative paths inside the zip (`../images/blogs/…`).
 */
export async function myDataZip(deps: MyDataDeps, userId: string): Promise<Readable> {
  const [account, blogs, inline, comments, votes] = await Promise.all([
    selectAccountRow(deps.db, userId),
    selectOwnBlogs(deps.db, userId),
    selectOwnInlineImageKeys(deps.db, userId),
    selectOwnComments(deps.db, userId),
    selectOwnVotes(deps.db, userId),
  ]);
  const zip = newZip();
  zip.addBuffer(Buffer.from(README), 'README.txt');
  zip.addBuffer(Buffer.from(JSON.stringify({ email: account?.email, name: account?.name, joinedAt: account?.createdAt }, null, 2)), 'account.json');
  const imageKeys = new Set(inline.map((row) => row.key));
  const used = new Set<string>();
  for (const blog of blogs) {
    if (blog.image_key) imageKeys.add(blog.image_key);
    const front = {
      title: blog.title,
      date: blog.created_at.toISOString(),
      lastmod: blog.updated_at.toISOString(),
      draft: blog.status === 'draft',
      ...(blog.publish_at ? { publishAt: blog.publish_at.toISOString() } : {}),
      tags: blog.tags,
      ...(blog.image_key ? { image: `../images/${blog.image_key}` } : {}),
      id: blog.id,
    };
    const body = blog.body.replaceAll(`${deps.storage.publicBaseUrl}blogs/`, '../images/blogs/');
    let name = `${slugify(blog.title, 60, 'untitled')}.md`;
    if (used.has(name)) name = `${slugify(blog.title, 60, 'untitled')}-${blog.id.slice(0, 8)}.md`;
    used.add(name);
    zip.addBuffer(Buffer.from(`---\n${toYaml(front)}---\n\n${body}\n`), `blogs/${name}`);
  }
  zip.addBuffer(
    Buffer.from(JSON.stringify(comments.map((c) => ({ id: c.id, blogId: c.blog_id, blogTitle: c.blog_title, parentId: c.parent_id, body: c.body, createdAt: c.created_at, updatedAt: c.updated_at })), null, 2)),
    'comments.json',
  );
  zip.addBuffer(Buffer.from(JSON.stringify(votes.map((v) => ({ blogId: v.blog_id, blogTitle: v.blog_title, direction: v.direction, createdAt: v.created_at, updatedAt: v.updated_at })), null, 2)), 'votes.json');
  for (const key of imageKeys) {
    zip.addReadStreamLazy(`images/${key}`, { compress: false }, (callback) => {
      deps.storage.get(key).then(
        (data) => callback(null, Readable.from([data ?? Buffer.alloc(0)])),
        (err: unknown) => callback(err, Readable.from([])),
      );
    });
  }
  zip.end();
  return Readable.from(zip.outputStream as AsyncIterable<Buffer>);
}
