import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  blogDraftInputSchema,
  blogInputSchema,
  blogStatusSchema,
  type AuthorPage,
  type Blog,
  type BlogAddress,
  type BlogPage,
  type BlogSort,
  type BlogStatus,
} from '../../shared/blog-schema.js';
import { PAGE_SIZE } from '../../shared/constants.js';
import { blogSlugSchema } from '../../shared/blog-slug.js';
import { messages } from '../../shared/messages.js';
import { tagsInputSchema } from '../../shared/tag-schema.js';
import type { PublicData } from '../cache/public-data.js';
import type { Database } from '../db/schema.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { removeStoredImage, storeUploadedImage, type StoredImage } from '../images/stored-image.js';
import {
  releaseAllBlogInlineImages,
  removeInlineImageFiles,
  syncBlogInlineImages,
} from '../core/inline-images.js';
import type { ImageStorage } from '../storage/storage.js';
import { newImageKey } from '../storage/storage.js';
import { toBlogJson, toBlogSummaryJson } from '../core/blog-json.js';
import { publicAuthorName } from '../../shared/author-name.js';
import type { ShowAuthorsBy } from '../../shared/site-settings-schema.js';
import type { SiteSettingsSource } from '../core/site-settings.js';
import { withViewerVotes, type ViewerVotes } from '../core/viewer-votes.js';
import { renderBlogWithImages } from './blog-rendering.service.js';
import { blogStatesBefore, isPublicBlog, recordBlogChange, recordingBlogChange } from '../core/blog-events.js';
import { parsePublishAt, queueSchedule, resolveSchedule } from './scheduled-publishing.js';
import type { BlogForm, UploadedFile } from './blog-form.js';
import {
  clearOwnBlogImage,
  deleteOwnBlog,
  findBlogOwner,
  lockBlogOwnership,
  findAuthor,
  selectDraftsPage,
  setBlogSubmitted,
  selectListPage,
  updateOwnBlog,
  setOwnBlogStatus,
  findBlogBySlug,
  type ListFilter,
} from './blogs.repository.js';
import { findBlogRow, selectBlogRows } from '../core/blog-rows.repository.js';
import { insertBlog } from '../core/blog-writes.repository.js';
import { LISTS_TAG } from '../../shared/cache-tags.js';
import { parseId } from '../http/ids.js';

export interface BlogsDeps {
  db: Kysely<Database>;
  storage: ImageStorage;
  log: FastifyBaseLogger;
  /**
   * 'Show authors by': how a blog's author is named. Every route passes it; without it (imports,
   * tests) the spec's e-mail.
   */
  siteSettings?: SiteSettingsSource;
}

/** Lists also keep their public part in memory and read each viewer's own votes. */
export interface BlogListDeps extends BlogsDeps {
  siteSettings: SiteSettingsSource;
  publicData: PublicData;
  viewerVotes: ViewerVotes;
}

const showAuthorsByOf = async (deps: BlogsDeps): Promise<ShowAuthorsBy> => (deps.siteSettings ? (await deps.siteSettings.get()).showAuthorsBy : 'email');

const notYours = () => forbidden('You can only change your own blogs.');

/**
 * What the writer's role lets a write do (issue 44), worked out by the route from `core/access`:
 * `publishing` is 'publish' (authors and up), 'review' (an author's publish of a draft becomes a
 * submission when the site reviews new blogs) or 'refuse' (contributors); `anyBlog` and
 * `deleteAny` let editors change, and administrators delete, anyone's blog.
 */
export interface BlogWriter {
  id: string;
  publishing: 'publish' | 'review' | 'refuse';
  anyBlog: boolean;
  deleteAny: boolean;
}

/** The spec's signed-in user: their own blogs, published at once. */
export const authorWriter = (id: string): BlogWriter => ({ id, publishing: 'publish', anyBlog: false, deleteAny: false });

/** A write that would make a blog public (now or at a time): what the writer's role makes of it. */
function applyPublishing(writer: BlogWriter, next: { status: BlogStatus; publishAt: Date | null }): { status: BlogStatus; publishAt: Date | null; submitted: boolean } {
  const publishing = next.status === 'published' || next.publishAt !== null;
  if (!publishing || writer.publishing === 'publish') return { ...next, submitted: false };
  if (writer.publishing === 'refuse') throw forbidden(messages.contributorsCannotPublish);
  return { status: 'draft', publishAt: null, submitted: true };
}
const noSuchBlog = () => notFound(messages.blogDoesNotExist);

/** Ids are UUIDs; anything else cannot name a blog, and must not reach Postgres as a uuid. */
export function parseBlogId(id: string): string {
  return parseId(id, noSuchBlog);
}

/** One page of public blogs in an order; with `tag`, only those carrying it (an unused tag: an empty page). */
export async function listBlogs(deps: BlogListDeps, viewerId: string | null, query: { page: number; sort: BlogSort; tag?: string }): Promise<BlogPage> {
  return listPage(deps, viewerId, query.sort, query.page, { tag: query.tag });
}

/** One page of an author's public blogs, newest first, with who they are; 404 for no such user. */
export async function listAuthorBlogs(deps: BlogListDeps, viewerId: string | null, authorId: string, page: number): Promise<AuthorPage> {
  const row = await findAuthor(deps.db, authorId);
  if (row === undefined) throw notFound(messages.noSuchAuthor);
  const { showAuthorsBy } = await deps.siteSettings.get();
  const identity = { email: row.email, displayName: row.display_name, handle: row.handle };
  // With 'Name' the answer does not carry the e-mail at all (issue 58).
  const author = { id: authorId, name: publicAuthorName(showAuthorsBy, identity), ...(showAuthorsBy === 'email' ? { email: row.email } : {}), handle: row.handle, displayName: row.display_name, bio: row.bio };
  return { author, ...(await listPage(deps, viewerId, 'new', page, { authorId })) };
}

async function listPage(deps: BlogListDeps, viewerId: string | null, sort: BlogSort, page: number, filter: ListFilter = {}): Promise<BlogPage> {
  // The page as anyone sees it, kept in memory until a write changes a list; the viewer's own
  // votes are read fresh for every answer.
  const key =
    filter.authorId !== undefined ? `author:${filter.authorId}:${page}` : filter.tag !== undefined ? `tag:${filter.tag}:${sort}:${page}` : `list:${sort}:${page}`;
  const shared = await deps.publicData.remember(key, [LISTS_TAG], async () => {
    const { showAuthorsBy } = await deps.siteSettings.get();
    // One row more than a page says exactly whether another page exists.
    const rows = await selectListPage(deps.db, sort, { offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE + 1, ...filter });
    return { items: rows.slice(0, PAGE_SIZE).map((row) => toBlogSummaryJson(row, deps.storage, showAuthorsBy)), hasMore: rows.length > PAGE_SIZE };
  });
  return { items: await withViewerVotes(deps.viewerVotes, viewerId, shared.items), page, pageSize: PAGE_SIZE, hasMore: shared.hasMore };
}

/** The viewer's own drafts, one page at a time, the last changed first. */
export async function listDrafts(deps: BlogsDeps, userId: string, page: number): Promise<BlogPage> {
  const rows = await selectDraftsPage(deps.db, userId, { offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE + 1 });
  const showAuthorsBy = await showAuthorsByOf(deps);
  return {
    items: rows.slice(0, PAGE_SIZE).map((row) => toBlogSummaryJson(row, deps.storage, showAuthorsBy)),
    page,
    pageSize: PAGE_SIZE,
    hasMore: rows.length > PAGE_SIZE,
  };
}

export async function getBlog(deps: BlogsDeps, viewerId: string | null, rawId: string, anyBlog = false): Promise<Blog> {
  const id = parseBlogId(rawId);
  // An editor (issue 44) opens any blog to edit it, a draft submitted for review too.
  const row = (await findBlogRow(deps.db, viewerId, id)) ?? (anyBlog ? await selectBlogRows(deps.db, viewerId).where('blogs.id', '=', id).executeTakeFirst() : undefined);
  if (!row) throw noSuchBlog();
  return toBlogJson(row, deps.storage, await showAuthorsByOf(deps));
}

/** The blog a readable address names and its current slug; an address with no blog (or not one the viewer may see) answers as an unknown blog does. */
export async function findBlogAddress(deps: Pick<BlogsDeps, 'db'>, viewerId: string | null, slug: string): Promise<BlogAddress> {
  const found = blogSlugSchema.safeParse(slug).success ? await findBlogBySlug(deps.db, slug, viewerId) : undefined;
  if (!found) throw noSuchBlog();
  return found;
}

/**
 * The image is checked, re-encoded and stored before the row exists, so a bad upload
 * leaves no blog; if the insert then fails, the stored file is removed again. The blog takes
 * the images its text shows that the author uploaded from the editor (see `syncBlogInlineImages`).
 */
export async function createBlog(deps: BlogsDeps, userId: string, form: BlogForm): Promise<Blog> {
  return (await createBlogAs(deps, authorWriter(userId), form)).blog;
}

/** `createBlog` by a writer whose role decides what publishing does (issue 44); `submitted`: it waits for review. */
export async function createBlogAs(deps: BlogsDeps, writer: BlogWriter, form: BlogForm): Promise<{ blog: Blog; submitted: boolean }> {
  const userId = writer.id;
  // Without a status the spec's flow: Submit publishes (unless a time to publish is given).
  const requestedStatus = parseStatus(form);
  const requestedPublishAt = parsePublishAt(form.fields.publishAt);
  const { status, publishAt, submitted } = applyPublishing(
    writer,
    resolveSchedule(
      { status: requestedStatus ?? (requestedPublishAt instanceof Date ? undefined : 'published'), publishAt: requestedPublishAt },
      { status: 'draft', publishAt: null },
    ),
  );
  // A scheduled blog is checked as a published one now: it will be published unattended; a submitted one as well.
  const input = validateText(form, publishAt || submitted ? 'published' : status);
  const tags = parseTags(form) ?? [];
  const { rendered, inlineKeys } = await renderBlogWithImages(deps, input.blog);
  const image = form.image ? await storeImage(deps, form.image, userId) : null;
  let id: string;
  try {
    id = await deps.db.transaction().execute(async (trx) => {
      const created = await insertBlog(trx, { userId, title: input.title, body: input.blog, status, publishAt, tags, rendered, image });
      await syncBlogInlineImages(trx, { userId, blogId: created, keys: inlineKeys });
      if (submitted) await setBlogSubmitted(trx, created, new Date());
      await recordBlogChange(trx, { blogId: created, before: null, origin: 'author' });
      await queueSchedule(trx, created, publishAt);
      return created;
    });
  } catch (error) {
    if (image) await removeImage(deps, image.key);
    throw error;
  }
  return { blog: await getBlog(deps, userId, id), submitted };
}

/** Checked before the upload is processed, so strangers cannot make the server decode images. */
export async function assertOwnBlog(deps: BlogsDeps, userId: string, rawId: string, anyBlog = false): Promise<string> {
  const id = parseBlogId(rawId);
  const owner = await findBlogOwner(deps.db, id, userId, anyBlog);
  if (!owner) throw noSuchBlog();
  if (owner !== userId && !anyBlog) throw notYours();
  return id;
}

/**
 * Ownership is checked again inside the transaction that writes, with the row locked.
 * The replaced image is deleted only after the commit; a failed write deletes the new one.
 * Without a status the blog keeps its own; the text is checked as a draft's first (before the
 * image is processed) and, when the result is published, as a published blog's under the lock.
 *
 * Publishing a draft moves its `created_at` to now: readers know a blog by when it appeared
 * (the card's 'Created {date}', the feeds' dates, newest-first order), so a draft begun last
 * month and published today is today's news, not a post buried a month down the feeds.
 */
export async function updateBlog(
  deps: BlogsDeps,
  writer: BlogWriter,
  rawId: string,
  form: BlogForm,
): Promise<{
  blog: Blog;
  /** Whether readers could see the blog before this change. */ wasPublic: boolean;
  submitted: boolean;
  /** Whether this change published (or scheduled) a draft that waited for review (issue 59: its writer is told). */ reviewedAndPublished: boolean;
}> {
  const userId = writer.id;
  const id = parseBlogId(rawId);
  const requested = parseStatus(form);
  const requestedPublishAt = parsePublishAt(form.fields.publishAt);
  const draftInput = validateText(form, requested ?? 'draft');
  const tags = parseTags(form);
  const { rendered, inlineKeys } = await renderBlogWithImages(deps, draftInput.blog);
  const newImage = form.image ? await storeImage(deps, form.image, userId) : undefined;
  let before: { imageKey: string | null; wasPublic: boolean; submitted: boolean; reviewedAndPublished: boolean };
  try {
    before = await deps.db.transaction().execute(async (trx) => {
      const current = await lockBlogOwnership(trx, id, userId, writer.anyBlog);
      if (!current) throw noSuchBlog();
      if (current.user_id !== userId && !writer.anyBlog) throw notYours();
      const [state] = await blogStatesBefore(trx, { blogIds: [id] });
      const scheduled = resolveSchedule({ status: requested, publishAt: requestedPublishAt }, { status: current.status, publishAt: current.publish_at });
      // Review (issue 44) stands between a draft and its readers; a contributor's published blog (an editor published it) stays as it is only by an editor's hand.
      const { status, publishAt, submitted } =
        current.status === 'published' && writer.publishing !== 'refuse' ? { ...scheduled, submitted: false } : applyPublishing(writer, scheduled);
      // A scheduled blog is checked as a published one: it will be published unattended.
      const input = validateText(form, publishAt || submitted ? 'published' : status);
      const updated = await updateOwnBlog(trx, id, current.user_id, {
        title: input.title,
        body: input.blog,
        status,
        tags,
        publishAt,
        publishedNow: current.status === 'draft' && status === 'published',
        rendered,
        image: newImage,
        submittedAt: submitted ? (current.submitted_at ?? new Date()) : status === 'published' || publishAt ? null : undefined,
      });
      if (!updated) throw noSuchBlog();
      await syncBlogInlineImages(trx, { userId: current.user_id, blogId: id, keys: inlineKeys });
      await recordBlogChange(trx, { blogId: id, before: state ?? null, origin: 'author' });
      if (publishAt && publishAt.getTime() !== current.publish_at?.getTime()) await queueSchedule(trx, id, publishAt);
      // Public as readers saw it: published, not hidden, its author not suspended (the one rule).
      return {
        imageKey: current.image_key,
        wasPublic: isPublicBlog(state),
        submitted: submitted && current.submitted_at === null,
        reviewedAndPublished: current.submitted_at !== null && !submitted && (status === 'published' || publishAt !== null),
      };
    });
  } catch (error) {
    if (newImage) await removeImage(deps, newImage.key);
    throw error;
  }
  if (newImage && before.imageKey) await removeImage(deps, before.imageKey);
  return { blog: await getBlog(deps, userId, id, writer.anyBlog), wasPublic: before.wasPublic, submitted: before.submitted, reviewedAndPublished: before.reviewedAndPublished };
}

/**
 * Posts' 'Publish' and 'Unpublish' (issue 59): only the status changes, by the rule an edit's
 * status follows (`applyPublishing`: a contributor does not publish, an author under review
 * submits instead) and with the one visibility event (`recordBlogChange`). A blog the writer may
 * not change answers as one that does not exist (404). Asking for the status it has (a
 * scheduled draft is a draft) changes nothing.
 */
export async function changeBlogStatus(
  deps: BlogsDeps,
  writer: BlogWriter,
  rawId: string,
  requested: BlogStatus,
): Promise<{ blog: Blog; wasPublic: boolean; submitted: boolean; reviewedAndPublished: boolean }> {
  const userId = writer.id;
  const id = parseBlogId(rawId);
  const result = await deps.db.transaction().execute(async (trx) => {
    const current = await lockBlogOwnership(trx, id, userId, writer.anyBlog);
    if (!current || (current.user_id !== userId && !writer.anyBlog)) throw noSuchBlog();
    const [state] = await blogStatesBefore(trx, { blogIds: [id] });
    const unchanged = { wasPublic: isPublicBlog(state), submitted: false, reviewedAndPublished: false };
    if (current.status === requested) return unchanged;
    const scheduled = resolveSchedule({ status: requested }, { status: current.status, publishAt: current.publish_at });
    const { status, publishAt, submitted } = applyPublishing(writer, scheduled);
    if (status === 'published' || submitted) {
      // Published as an edit would publish it: with its title and content.
      const row = await selectBlogRows(trx, userId).where('blogs.id', '=', id).executeTakeFirst();
      validateText({ fields: { title: row?.title ?? '', blog: row?.body ?? '' } } as BlogForm, 'published');
    }
    if (submitted && current.submitted_at !== null) return unchanged;
    const updated = await setOwnBlogStatus(trx, id, current.user_id, {
      status,
      publishAt,
      publishedNow: current.status === 'draft' && status === 'published',
      submittedAt: submitted ? new Date() : status === 'published' ? null : undefined,
    });
    if (!updated) throw noSuchBlog();
    await recordBlogChange(trx, { blogId: id, before: state ?? null, origin: 'author' });
    return { wasPublic: isPublicBlog(state), submitted, reviewedAndPublished: current.submitted_at !== null && status === 'published' };
  });
  return { blog: await getBlog(deps, userId, id, writer.anyBlog), ...result };
}

export async function deleteBlog(deps: BlogsDeps, writer: BlogWriter, rawId: string): Promise<void> {
  const userId = writer.id;
  const id = parseBlogId(rawId);
  const [imageKey, inlineKeys] = await deps.db.transaction().execute(async (trx) => {
    const current = await lockBlogOwnership(trx, id, userId, writer.deleteAny);
    if (!current) throw noSuchBlog();
    if (current.user_id !== userId && !writer.deleteAny) throw notYours();
    const released = await releaseAllBlogInlineImages(trx, id);
    const deleted = await recordingBlogChange(trx, { blogId: id, origin: 'author', deleted: true }, () => deleteOwnBlog(trx, id, current.user_id));
    if (!deleted) throw noSuchBlog();
    return [current.image_key, released] as const;
  });
  if (imageKey) await removeImage(deps, imageKey);
  await removeInlineImageFiles(deps, inlineKeys);
}

/**
 * A contributor (or an author, when the site reviews new blogs) submits their draft for an
 * editor's review (issue 44): the draft is marked, once; `newly` says whether it was just now.
 * Only their own draft: a published blog has nothing to review, someone else's is not theirs.
 */
export async function submitDraft(deps: BlogsDeps, userId: string, rawId: string): Promise<{ blog: Blog; newly: boolean }> {
  const id = parseBlogId(rawId);
  const newly = await deps.db.transaction().execute(async (trx) => {
    const current = await lockBlogOwnership(trx, id, userId);
    if (!current) throw noSuchBlog();
    if (current.user_id !== userId) throw notYours();
    if (current.status !== 'draft') throw badRequest('This blog is already published.', 'ALREADY_PUBLISHED');
    if (current.submitted_at) return false;
    const row = await findBlogRow(trx, userId, id);
    // A draft goes to review as it would be published: with its title and content.
    validateText({ fields: { title: row?.title ?? '', blog: row?.body ?? '' } } as BlogForm, 'published');
    await setBlogSubmitted(trx, id, new Date());
    return true;
  });
  return { blog: await getBlog(deps, userId, id), newly };
}

/**
 * The owner takes the cover image (the spec's Post Image) off a blog: the row forgets it in a
 * locked transaction, then its files go. A blog without an image is answered as it is.
 */
export async function removeBlogImage(deps: BlogsDeps, writer: BlogWriter, rawId: string): Promise<Blog> {
  const userId = writer.id;
  const id = parseBlogId(rawId);
  const imageKey = await deps.db.transaction().execute(async (trx) => {
    const current = await lockBlogOwnership(trx, id, userId, writer.anyBlog);
    if (!current) throw noSuchBlog();
    if (current.user_id !== userId && !writer.anyBlog) throw notYours();
    if (current.image_key) await recordingBlogChange(trx, { blogId: id, origin: 'author' }, () => clearOwnBlogImage(trx, id, current.user_id));
    return current.image_key;
  });
  if (imageKey) await removeImage(deps, imageKey);
  return getBlog(deps, userId, id, writer.anyBlog);
}

/** A published blog needs a title and content (the spec's messages); a draft may still lack them. */
function validateText(form: BlogForm, status: BlogStatus) {
  const schema = status === 'published' ? blogInputSchema : blogDraftInputSchema;
  const parsed = schema.safeParse({ title: form.fields.title ?? '', blog: form.fields.blog ?? '' });
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'The blog is not valid.');
  return parsed.data;
}

/** The form's tags; undefined without the field (an edit without it keeps the blog's tags). */
function parseTags(form: BlogForm): string[] | undefined {
  if (form.fields.tags === undefined) return undefined;
  const parsed = tagsInputSchema.safeParse(form.fields.tags);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'The tags are not valid.');
  return parsed.data;
}

function parseStatus(form: BlogForm): BlogStatus | undefined {
  if (form.fields.status === undefined) return undefined;
  const parsed = blogStatusSchema.safeParse(form.fields.status);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'The status is not valid.');
  return parsed.data;
}

function storeImage(deps: BlogsDeps, upload: UploadedFile, userId: string): Promise<StoredImage> {
  return storeUploadedImage(deps.storage, newImageKey(upload.filename, userId), upload.data);
}

/**
 * The database is already right when this runs; a file left behind costs disk space, not
 * correctness, so a storage failure here is logged rather than failing the request.
 */
async function removeImage(deps: BlogsDeps, key: string): Promise<void> {
  try {
    await removeStoredImage(deps.storage, key);
  } catch (err) {
    deps.log.error({ err, key }, 'could not delete an image from storage');
  }
}
