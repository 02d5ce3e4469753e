import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../app-deps.js';
import { may } from '../core/access.js';
import type { BlogWriting, UploadedFile } from '../core/blog-writing.js';
import { uploadInlineImage } from '../core/inline-images.js';
import { isValidImageKey } from '../storage/image-key.js';
import type { BlogForm } from './blog-form.js';
import { createBlogAs, deleteBlog, getBlog, removeBlogImage, updateBlog, type BlogsDeps, type BlogWriter } from './blogs.service.js';
import { mailWriterPublished } from './posts.js';

type WritingDeps = Pick<AppDeps, 'db' | 'storage' | 'config' | 'siteSettings' | 'mailer'>;

/** An administrator's rights, in the name of the blog's author: publish, change and delete any blog. */
const administratorFor = (authorId: string): BlogWriter => ({ id: authorId, publishing: 'publish', anyBlog: true, deleteAny: true });

/** The keys of this site's stored images a blog's Markdown shows (as `![](…)` or as HTML). */
function storedKeysIn(deps: WritingDeps, markdown: string): string[] {
  const base = deps.storage.publicBaseUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [...new Set([...markdown.matchAll(new RegExp(`${base}([^\\s)"'<>]+)`, 'g'))].map(([, key]) => key!).filter(isValidImageKey))];
}

/**
 * `core/blog-writing.ts` for apps (issue 60): each write through the services the site's own forms
 * use. An app uploads images in the owner's name (it has no account); a blog written in another
 * author's name takes the unheld uploads its text shows, as the author's own editor uploads would
 * be, so that the sweep of unheld images never removes what a blog shows.
 */
export function blogWritingForApps(deps: WritingDeps): BlogWriting {
  const serviceDeps = (log: FastifyBaseLogger): BlogsDeps => ({ db: deps.db, storage: deps.storage, log, siteSettings: deps.siteSettings });
  const writesBlogs = (user: { id: string; email: string; role: string } | undefined) =>
    user && may(deps.config, { id: user.id, email: user.email, role: user.role as never }, { blog: 'draft' }) ? { id: user.id, email: user.email } : null;

  async function adoptShownUploads(authorId: string, form: BlogForm): Promise<void> {
    const keys = storedKeysIn(deps, form.fields.blog ?? '');
    if (keys.length === 0) return;
    await deps.db.updateTable('inline_images').set({ user_id: authorId }).where('key', 'in', keys).where('blog_id', 'is', null).where('user_id', '!=', authorId).execute();
  }

  return {
    async defaultAuthor() {
      return writesBlogs(await deps.db.selectFrom('user').select(['id', 'email', 'role']).where('role', '=', 'owner').executeTakeFirst());
    },
    async findAuthor(by) {
      let query = deps.db.selectFrom('user').select(['id', 'email', 'role']);
      if (by.email !== undefined) query = query.where((eb) => eb(eb.fn('lower', ['email']), '=', by.email!.toLowerCase()));
      else if (by.id !== undefined && /^[\w-]{1,64}$/.test(by.id)) query = query.where('id', '=', by.id);
      else return null;
      return writesBlogs(await query.executeTakeFirst());
    },
    read: (id, log) => getBlog(serviceDeps(log), null, id, true),
    async create(authorId, form, log) {
      await adoptShownUploads(authorId, form);
      return (await createBlogAs(serviceDeps(log), administratorFor(authorId), form)).blog;
    },
    async update(id, form, log) {
      const current = await getBlog(serviceDeps(log), null, id, true);
      await adoptShownUploads(current.userId, form);
      const { blog, reviewedAndPublished } = await updateBlog(serviceDeps(log), administratorFor(current.userId), id, form);
      // A submitted draft the app published: its writer is told, as when an editor publishes it.
      if (reviewedAndPublished) await mailWriterPublished(deps, blog);
      return blog;
    },
    async remove(id, log) {
      const current = await getBlog(serviceDeps(log), null, id, true);
      await deleteBlog(serviceDeps(log), administratorFor(current.userId), id);
    },
    async removeImage(id, log) {
      const current = await getBlog(serviceDeps(log), null, id, true);
      await removeBlogImage(serviceDeps(log), administratorFor(current.userId), id);
    },
    async uploadImage(userId, file, log) {
      return (await uploadInlineImage({ db: deps.db, storage: deps.storage, log }, userId, file)).url;
    },
    async storedImage(url) {
      // The site's own address may lead a local store's path (`/uploads/…`).
      const own = url.startsWith(`${deps.config.publicUrl}/`) && deps.storage.publicBaseUrl.startsWith('/') ? url.slice(deps.config.publicUrl.length) : url;
      if (!own.startsWith(deps.storage.publicBaseUrl)) return null;
      const key = own.slice(deps.storage.publicBaseUrl.length);
      if (!isValidImageKey(key)) return null;
      const data = await deps.storage.get(key);
      return data ? ({ filename: key.split('/').pop() ?? 'image', data } satisfies UploadedFile) : null;
    },
  };
}
