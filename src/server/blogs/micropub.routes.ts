import fastifyMultipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { blogTag, LISTS_TAG } from '../../shared/cache-tags.js';
import type { Blog } from '../../shared/blog-schema.js';
import type { AppDeps } from '../app-deps.js';
import { changes, neverCached, reportChanges, reportedChanges } from '../cache/route-caching.js';
import { bearerToken, grantOf, touchAppToken, wrongTokensOf, type AppTokenGrant } from '../core/app-tokens.js';
import { uploadInlineImage } from '../core/inline-images.js';
import type { SessionUser } from '../core/session-user.js';
import { AppError } from '../errors.js';
import { oneFileFormLimits } from '../http/multipart-errors.js';
import { outgoingRequestGuard } from '../http/public-address.js';
import { imageTooLarge, MAX_UPLOAD_BYTES } from '../images/image-processing.js';
import { htmlToMarkdown } from '../markdown/html-to-markdown.js';
import { clientKey } from '../rate-limit/rate-limit.js';
import type { BlogForm, UploadedFile } from './blog-form.js';
import { blogWriterOf, deleteWriterOf, mailReviewers } from './blog-review.js';
import { BLOG_CREATE_RATE_LIMIT, BLOG_UPDATE_RATE_LIMIT, TOO_MANY_EDITS } from './blogs.routes.js';
import { createBlogAs, deleteBlog, findBlogAddress, getBlog, updateBlog, type BlogsDeps } from './blogs.service.js';
import { mailWriterPublished } from './posts.js';

/**
 * Micropub (W3C Recommendation, issue 60): apps holding an IndieAuth token (`core/app-tokens.ts`)
 * write blogs as their author, through the same services as the site's own forms (sanitising,
 * image checks, roles, the visibility event, cache invalidation), within the token's scopes.
 */
export const MICROPUB_PATH = '/micropub';
export const MICROPUB_MEDIA_PATH = '/micropub/media';

/** A Micropub request, whichever of form-encoded, multipart or JSON it came as. */
interface MicropubRequest {
  action?: string;
  url?: string;
  properties: Record<string, unknown[]>;
  replace?: Record<string, unknown[]>;
  add?: Record<string, unknown[]>;
  delete?: string[] | Record<string, unknown[]>;
  accessToken?: string;
  photo?: UploadedFile;
  file?: UploadedFile;
}

class MicropubError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}
const invalid = (description: string) => new MicropubError(400, 'invalid_request', description);

const MICROPUB_FORM_LIMITS = oneFileFormLimits({ fileSize: MAX_UPLOAD_BYTES, fields: 40, fieldSize: 4 * 100_000 });

/** Form fields as Micropub names them: `category[]` and repeated `category` alike are a list. */
function fromFields(entries: Iterable<[string, string]>, into: MicropubRequest = { properties: {} }): MicropubRequest {
  for (const [rawKey, value] of entries) {
    const key = rawKey.replace(/\[\]$/, '');
    if (key === 'h') continue;
    if (key === 'action' || key === 'url') into[key] = value;
    else if (key === 'access_token') into.accessToken = value;
    else if (key === 'delete') (into.delete = Array.isArray(into.delete) ? into.delete : []).push(value);
    else (into.properties[key] ??= []).push(value);
  }
  return into;
}

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
function fromJson(body: unknown): MicropubRequest {
  if (!body || typeof body !== 'object') throw invalid('The body must be a JSON object.');
  const json = body as Record<string, unknown>;
  const record = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).map(([key, list]) => [key, asList(list)])) : undefined);
  return {
    action: typeof json.action === 'string' ? json.action : undefined,
    url: typeof json.url === 'string' ? json.url : undefined,
    properties: record(json.properties) ?? {},
    replace: record(json.replace),
    add: record(json.add),
    delete: Array.isArray(json.delete) ? json.delete.filter((name): name is string => typeof name === 'string') : record(json.delete),
  };
}

async function readMultipart(request: FastifyRequest): Promise<MicropubRequest> {
  const parsed: MicropubRequest = { properties: {} };
  const fields: [string, string][] = [];
  for await (const part of request.parts({ limits: MICROPUB_FORM_LIMITS })) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      if (part.file.truncated) throw imageTooLarge();
      const name = part.fieldname.replace(/\[\]$/, '');
      if ((name === 'photo' || name === 'file') && !parsed[name] && data.length > 0) parsed[name] = { filename: part.filename || name, data };
      continue;
    }
    fields.push([part.fieldname, String(part.value)]);
  }
  return fromFields(fields, parsed);
}

async function readRequest(request: FastifyRequest): Promise<MicropubRequest> {
  if (request.isMultipart()) return readMultipart(request);
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') return fromJson(request.body);
  if (type === 'application/x-www-form-urlencoded') return fromFields(request.body as [string, string][]);
  throw new MicropubError(415, 'invalid_request', 'Send the request form-encoded, as multipart/form-data or as JSON.');
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : value && typeof value === 'object' && typeof (value as { value?: unknown }).value === 'string' ? (value as { value: string }).value : undefined);
/** `content` as text (the blog's Markdown), or `{ html }` as Markdown (scripts and styles dropped; the renderer sanitises it again on saving, as every blog). */
const contentOf = (value: unknown): string | undefined =>
  value && typeof value === 'object' && typeof (value as { html?: unknown }).html === 'string' ? htmlToMarkdown((value as { html: string }).html) : text(value);
const tagsOf = (values: unknown[] | undefined) => (values ?? []).map(text).filter((tag): tag is string => Boolean(tag));
/** A note has no name: its title is its first words. */
function titleFrom(body: string): string {
  const words = body.replace(/<[^>]*>/g, ' ').replace(/[#*_`>[\]()!]/g, ' ').replace(/\s+/g, ' ').trim();
  if (words.length <= 60) return words || 'Untitled';
  const cut = words.slice(0, 60);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 20 ? cut.lastIndexOf(' ') : 60)}…`;
}

export const micropubRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  await app.register(fastifyMultipart, { limits: MICROPUB_FORM_LIMITS, throwFileSizeLimit: true });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, [...new URLSearchParams(body as string)]));
  const wrongTokens = wrongTokensOf(deps.limiter);
  // A photo named by URL is fetched only from a public address, at most an upload's size, briefly.
  const guard = outgoingRequestGuard({ allowPrivateAddress: false, limits: { maxResponseBytes: MAX_UPLOAD_BYTES, deadlineMs: 10_000 } });
  const serviceDeps = (request: FastifyRequest): BlogsDeps => ({ db: deps.db, storage: deps.storage, log: request.log, siteSettings: deps.siteSettings });
  const address = (blog: Pick<Blog, 'slug'>) => new URL(`/blog/${blog.slug}`, deps.config.publicUrl).href;
  const tags = ['micropub'];

  const send = (reply: FastifyReply, error: unknown) => {
    if (error instanceof MicropubError) return reply.code(error.status).header('cache-control', 'no-store').send({ error: error.error, error_description: error.description, message: error.description });
    if (error instanceof AppError && error.statusCode !== 429 && error.statusCode < 500) {
      const kind = error.statusCode === 401 ? 'unauthorized' : error.statusCode === 403 ? 'forbidden' : 'invalid_request';
      return reply.code(error.statusCode === 404 ? 400 : error.statusCode).send({ error: kind, error_description: error.message, message: error.message });
    }
    throw error;
  };

  /** The token's author, or 401: from the `Authorization` header, else the body's `access_token`. */
  async function authorOf(request: FastifyRequest, bodyToken?: string): Promise<{ user: SessionUser; grant: AppTokenGrant }> {
    const token = bearerToken(request) ?? bodyToken;
    if (!token) throw new MicropubError(401, 'unauthorized', 'A Bearer token is required.');
    const grant = await grantOf({ db: deps.db, wrongTokens }, request, token);
    if (!grant) throw new MicropubError(401, 'unauthorized', 'The token is not valid.');
    await touchAppToken(deps.db, grant.tokenId);
    return { user: { id: grant.userId, email: grant.email, role: grant.role }, grant };
  }
  const requireScope = (grant: AppTokenGrant, ...any: string[]) => {
    if (!any.some((scope) => grant.scopes.includes(scope))) throw new MicropubError(403, 'insufficient_scope', `The token needs the scope ${any.join(' or ')}.`);
  };

  async function photoFrom(value: unknown): Promise<UploadedFile | undefined> {
    const url = text(value);
    if (!url) return undefined;
    if (!URL.canParse(url)) throw invalid('photo must be a URL.');
    try {
      await guard.assertAllowed(url);
      return await guard.run(async () => {
        const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
        if (!response.ok) throw invalid(`The photo could not be fetched (${response.status}).`);
        return { filename: new URL(url).pathname.split('/').pop() || 'photo', data: Buffer.from(await response.arrayBuffer()) };
      });
    } catch (error) {
      if (error instanceof MicropubError) throw error;
      throw invalid('The photo could not be fetched from a public address.');
    }
  }

  async function blogIdAt(user: SessionUser, url: string | undefined): Promise<string> {
    if (!url || !URL.canParse(url)) throw invalid('url must be the address of a blog.');
    const match = /^\/blog\/([^/]+)\/?$/.exec(new URL(url).pathname);
    if (!match || new URL(url).origin !== new URL(deps.config.publicUrl).origin) throw invalid('url must be the address of a blog of this site.');
    return (await findBlogAddress(deps, user.id, decodeURIComponent(match[1]!))).id;
  }

  async function create(request: FastifyRequest, reply: FastifyReply, user: SessionUser, grant: AppTokenGrant, mp: MicropubRequest) {
    requireScope(grant, 'create', 'draft');
    const writer = await blogWriterOf(deps, user);
    await deps.limiter.enforce(`blog-create:${user.id}`, BLOG_CREATE_RATE_LIMIT, 'You have created many blogs in a short time. Please wait a few minutes before creating another.');
    const props = mp.properties;
    const body = contentOf(props.content?.[0]) ?? '';
    const published = text(props.published?.[0]);
    const draft = text(props['post-status']?.[0]) === 'draft' || !grant.scopes.includes('create');
    const publishAt = published && !draft && Date.parse(published) > Date.now() ? new Date(Date.parse(published)).toISOString() : undefined;
    const form: BlogForm = {
      fields: { title: text(props.name?.[0]) || titleFrom(body), blog: body, tags: tagsOf(props.category).join(', '), ...(draft ? { status: 'draft' } : publishAt ? { publishAt } : { status: 'published' }) },
      image: mp.photo ?? (await photoFrom(props.photo?.[0])),
    };
    const { blog, submitted } = await createBlogAs(serviceDeps(request), writer, form);
    if (submitted) await mailReviewers(deps, blog, user.email);
    reportChanges(request, blog.status === 'draft' ? [] : [LISTS_TAG]);
    return reply.code(201).header('location', address(blog)).send();
  }

  async function update(request: FastifyRequest, reply: FastifyReply, user: SessionUser, grant: AppTokenGrant, mp: MicropubRequest) {
    requireScope(grant, 'update');
    await deps.limiter.enforce(`blog-update:client:${clientKey(request.ip)}`, BLOG_UPDATE_RATE_LIMIT, TOO_MANY_EDITS);
    await deps.limiter.enforce(`blog-update:user:${user.id}`, BLOG_UPDATE_RATE_LIMIT, TOO_MANY_EDITS);
    const writer = await blogWriterOf(deps, user);
    const id = await blogIdAt(user, mp.url);
    const current = await getBlog(serviceDeps(request), user.id, id, writer.anyBlog);
    let title = current.title;
    let body = current.blog;
    let categories = [...current.tags];
    let status: string | undefined;
    let image: UploadedFile | undefined;
    for (const [name, values] of Object.entries(mp.replace ?? {})) {
      if (name === 'name') title = text(values[0]) ?? title;
      else if (name === 'content') body = contentOf(values[0]) ?? '';
      else if (name === 'category') categories = tagsOf(values);
      else if (name === 'post-status') status = text(values[0]) === 'draft' ? 'draft' : 'published';
      else if (name === 'photo') image = await photoFrom(values[0]);
      else throw invalid(`The property ${name} cannot be replaced here.`);
    }
    for (const [name, values] of Object.entries(mp.add ?? {})) {
      if (name === 'category') categories = [...new Set([...categories, ...tagsOf(values)])];
      else throw invalid(`The property ${name} cannot be added to here.`);
    }
    const removals = mp.delete;
    if (Array.isArray(removals)) {
      for (const name of removals) {
        if (name === 'category') categories = [];
        else throw invalid(`The property ${name} cannot be deleted here.`);
      }
    } else if (removals) {
      for (const [name, values] of Object.entries(removals)) {
        if (name !== 'category') throw invalid(`The property ${name} cannot be deleted here.`);
        const gone = new Set(tagsOf(values).map((tag) => tag.toLowerCase()));
        categories = categories.filter((tag) => !gone.has(tag.toLowerCase()));
      }
    }
    const form: BlogForm = { fields: { title, blog: body, tags: categories.join(', '), ...(status ? { status } : {}) }, image };
    const { blog, submitted, reviewedAndPublished } = await updateBlog(serviceDeps(request), writer, id, form);
    if (submitted) await mailReviewers(deps, blog, user.email);
    if (reviewedAndPublished && blog.userId !== user.id) await mailWriterPublished(deps, blog);
    reportChanges(request, [LISTS_TAG, blogTag(id)]);
    // A new title may give the blog a new address: the app is told where it is now.
    return blog.slug !== current.slug ? reply.code(201).header('location', address(blog)).send() : reply.code(204).send();
  }

  async function remove(request: FastifyRequest, reply: FastifyReply, user: SessionUser, grant: AppTokenGrant, mp: MicropubRequest) {
    requireScope(grant, 'delete');
    const id = await blogIdAt(user, mp.url);
    await deleteBlog(serviceDeps(request), deleteWriterOf(deps, user), id);
    reportChanges(request, [LISTS_TAG, blogTag(id)]);
    return reply.code(204).send();
  }

  app.post(
    MICROPUB_PATH,
    { config: changes(reportedChanges), schema: { tags, summary: 'Micropub: create (form-encoded, multipart or JSON h-entry), update, delete (undelete is refused: deleting is final)', consumes: ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'] } },
    async (request, reply) => {
      try {
        // A token in the header is judged before the body is read; one in a form body after.
        const headerAuth = request.headers.authorization ? await authorOf(request) : undefined;
        const mp = await readRequest(request);
        const { user, grant } = headerAuth ?? (await authorOf(request, mp.accessToken));
        switch (mp.action ?? 'create') {
          case 'create':
            return await create(request, reply, user, grant, mp);
          case 'update':
            return await update(request, reply, user, grant, mp);
          case 'delete':
            return await remove(request, reply, user, grant, mp);
          case 'undelete':
            requireScope(grant, 'delete');
            throw invalid('This site has no soft delete: a deleted blog is gone and cannot be undeleted.');
          default:
            throw invalid(`Unknown action ${mp.action}.`);
        }
      } catch (error) {
        return send(reply, error);
      }
    },
  );

  app.get(
    MICROPUB_PATH,
    { config: neverCached, schema: { tags, summary: 'Micropub queries: q=config, q=source (url, properties[]), q=syndicate-to', querystring: z.record(z.string(), z.union([z.string(), z.array(z.string())])) } },
    async (request, reply) => {
      try {
        const { user } = await authorOf(request, typeof request.query.access_token === 'string' ? request.query.access_token : undefined);
        reply.header('cache-control', 'private, no-store');
        const q = request.query.q;
        if (q === 'config') return { 'media-endpoint': new URL(MICROPUB_MEDIA_PATH, deps.config.publicUrl).href, 'syndicate-to': [], 'post-types': [{ type: 'article', name: 'Blog' }, { type: 'note', name: 'Note' }, { type: 'photo', name: 'Photo' }] };
        if (q === 'syndicate-to') return { 'syndicate-to': [] };
        if (q === 'source') {
          const url = typeof request.query.url === 'string' ? request.query.url : undefined;
          const writer = await blogWriterOf(deps, user);
          const blog = await getBlog(serviceDeps(request), user.id, await blogIdAt(user, url), writer.anyBlog);
          const all: Record<string, unknown[]> = {
            name: [blog.title],
            content: [blog.blog],
            category: blog.tags,
            published: [blog.createdAt],
            'post-status': [blog.status],
            url: [address(blog)],
            ...(blog.imageUrl ? { photo: [new URL(blog.imageUrl, deps.config.publicUrl).href] } : {}),
          };
          const wanted = asList(request.query['properties[]'] ?? request.query.properties).filter((name): name is string => typeof name === 'string');
          const properties = wanted.length ? Object.fromEntries(Object.entries(all).filter(([name]) => wanted.includes(name))) : all;
          return wanted.length ? { properties } : { type: ['h-entry'], properties };
        }
        throw invalid('q must be config, source or syndicate-to.');
      } catch (error) {
        return send(reply, error);
      }
    },
  );

  app.post(
    MICROPUB_MEDIA_PATH,
    { schema: { tags, summary: 'Micropub media endpoint: one image (multipart field file), answered 201 with its Location', consumes: ['multipart/form-data'] } },
    async (request, reply) => {
      try {
        const headerAuth = request.headers.authorization ? await authorOf(request) : undefined;
        if (!request.isMultipart()) throw invalid('Send the image as multipart/form-data in the field file.');
        const mp = await readMultipart(request);
        const { user, grant } = headerAuth ?? (await authorOf(request, mp.accessToken));
        requireScope(grant, 'media');
        await blogWriterOf(deps, user);
        if (!mp.file) throw invalid('Send one image in the field file.');
        const uploaded = await uploadInlineImage({ db: deps.db, storage: deps.storage, log: request.log }, user.id, mp.file);
        return reply.code(201).header('location', new URL(uploaded.url, deps.config.publicUrl).href).send();
      } catch (error) {
        return send(reply, error);
      }
    },
  );
};

/** Micropub's discovery on the home page: `Link: <…/micropub>; rel="micropub"` (IndieAuth's metadata beside it). */
export function micropubLinkHeader(publicUrl: string): string {
  return `<${new URL(MICROPUB_PATH, publicUrl).href}>; rel="micropub", <${new URL('/.well-known/oauth-authorization-server', publicUrl).href}>; rel="indieauth-metadata"`;
}
