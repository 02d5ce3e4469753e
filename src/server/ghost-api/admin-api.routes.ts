import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import { z } from 'zod';
import { blogTag, LISTS_TAG } from '../../shared/cache-tags.js';
import { changes, neverCached, reportChanges, reportedChanges } from '../cache/route-caching.js';
import type { UploadedFile } from '../core/blog-writing.js';
import { oneFileFormLimits } from '../http/multipart-errors.js';
import { imageTooLarge, MAX_UPLOAD_BYTES } from '../images/image-processing.js';
import type { RateLimiter } from '../rate-limit/rate-limit.js';
import { clientKey } from '../rate-limit/rate-limit.js';
import { addPost, browseAdminPosts, deletePost, editPost, readAdminPost, type AdminApiDeps, type PostInput } from './admin-api.service.js';
import { GhostError } from './content-api.service.js';
import { ghostErrorHandler } from './ghost-errors.js';
import { adminSecretOf, noteUse, type IntegrationsDeps } from './integrations.service.js';

export const ADMIN_API_PREFIX = '/ghost/api/admin/';

/** Wrong tokens per address, as the Content API's wrong keys; writes per integration, far above a writer's app. */
const WRONG_TOKEN_LIMIT = { max: 30, windowSeconds: 300 };
const WRITE_LIMIT = { max: 120, windowSeconds: 600 };
/** Ghost's tokens live five minutes at most; a little clock skew between the app and the site is allowed. */
const MAX_TOKEN_SECONDS = 5 * 60;
const CLOCK_TOLERANCE_SECONDS = 30;
const IMAGE_FORM_LIMITS = oneFileFormLimits({ fileSize: MAX_UPLOAD_BYTES, fields: 4, fieldSize: 1000 });

const unauthorized = (message: string) => new GhostError(401, 'UnauthorizedError', message);

const browseQuery = z.object({ limit: z.string().optional(), page: z.string().optional(), filter: z.string().optional(), order: z.string().optional(), fields: z.string().optional(), include: z.string().optional(), formats: z.string().optional() });
const writeQuery = z.object({ source: z.string().optional() }).passthrough();
const postsBody = z.object({ posts: z.array(z.record(z.string(), z.unknown())).length(1) });
const idParams = z.object({ id: z.string() });

/**
 * `/ghost/api/admin/…` (issue 60, docs/apis.md): Ghost's Admin API for an integration's Admin API
 * key. Every request carries `Authorization: Ghost <JWT>`, signed (HS256) with the key's secret,
 * `kid` the key's id, audience `/admin/`, living five minutes at most, as Ghost checks it. An
 * integration acts with an administrator's rights over blogs; it has no route to accounts, roles
 * or ownership. Answers and errors are Ghost's shapes.
 */
export const adminApiRoutes: FastifyPluginAsyncZod<{ admin: AdminApiDeps; integrations: IntegrationsDeps; limiter: Pick<RateLimiter, 'enforce'> }> = async (app, deps) => {
  await app.register(fastifyMultipart, { limits: IMAGE_FORM_LIMITS, throwFileSizeLimit: true });
  app.decorateRequest('integrationId', '');

  app.setErrorHandler(ghostErrorHandler('Admin API', { status: 422, type: 'ValidationError' }));

  /** The integration whose Admin API key signed the request's token, or 401 (wrong ones are limited per address). */
  app.addHook('onRequest', async (request) => {
    try {
      request.integrationId = await integrationOf(request);
    } catch (error) {
      if (!(error instanceof GhostError)) throw error;
      await deps.limiter.enforce(`ghost-admin-token:client:${clientKey(request.ip)}`, WRONG_TOKEN_LIMIT);
      throw error;
    }
  });

  async function integrationOf(request: FastifyRequest): Promise<string> {
    const header = request.headers.authorization ?? '';
    const token = /^Ghost (\S+)$/.exec(header)?.[1];
    if (!token) throw unauthorized('Authorization header format is "Authorization: Ghost [token]"');
    let keyId: string | undefined;
    try {
      const protectedHeader = decodeProtectedHeader(token);
      keyId = protectedHeader.alg === 'HS256' && typeof protectedHeader.kid === 'string' ? protectedHeader.kid : undefined;
    } catch {
      keyId = undefined;
    }
    if (!keyId) throw unauthorized('Invalid token: a JWT signed with HS256 whose "kid" is the Admin API key’s id is needed.');
    const key = await adminSecretOf(deps.integrations, keyId);
    if (!key) throw unauthorized('Unknown Admin API Key');
    try {
      const { payload } = await jwtVerify(token, Buffer.from(key.secret, 'hex'), {
        algorithms: ['HS256'],
        audience: '/admin/',
        requiredClaims: ['iat', 'exp'],
        maxTokenAge: MAX_TOKEN_SECONDS + CLOCK_TOLERANCE_SECONDS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      if (payload.exp! - payload.iat! > MAX_TOKEN_SECONDS) throw unauthorized('Invalid token: the maximum lifetime of a token is 5 minutes.');
    } catch (error) {
      if (error instanceof GhostError) throw error;
      if (error instanceof joseErrors.JOSEError) throw unauthorized(`Invalid token: ${error.message}`);
      throw error;
    }
    await noteUse(deps.integrations, key.id);
    return key.id;
  }

  const limitWrites = (request: FastifyRequest) => deps.limiter.enforce(`ghost-admin-write:${request.integrationId}`, WRITE_LIMIT);
  const p = ADMIN_API_PREFIX;
  const read = { config: neverCached, schema: { hide: true, querystring: browseQuery } };
  const write = { config: changes(reportedChanges), schema: { hide: true, querystring: writeQuery } };
  const changed = (request: FastifyRequest, id: string) => reportChanges(request, [LISTS_TAG, blogTag(id)]);

  app.get(`${p}posts/`, read, async (request) => browseAdminPosts(deps.admin, request.query));
  app.get(`${p}posts/slug/:slug/`, { ...read, schema: { ...read.schema, params: z.object({ slug: z.string() }) } }, async (request) => readAdminPost(deps.admin, { slug: request.params.slug }, request.query));
  app.get(`${p}posts/:id/`, { ...read, schema: { ...read.schema, params: idParams } }, async (request) => readAdminPost(deps.admin, { id: request.params.id }, request.query));

  app.post(`${p}posts/`, { ...write, schema: { ...write.schema, body: postsBody } }, async (request, reply) => {
    await limitWrites(request);
    const answer = await addPost(deps.admin, request.body.posts[0] as PostInput, request.query.source, request.log);
    changed(request, answer.posts[0]!.id as string);
    return reply.status(201).send(answer);
  });
  app.put(`${p}posts/:id/`, { ...write, schema: { ...write.schema, params: idParams, body: postsBody } }, async (request) => {
    await limitWrites(request);
    const answer = await editPost(deps.admin, request.params.id, request.body.posts[0] as PostInput, request.query.source, request.log);
    changed(request, request.params.id);
    return answer;
  });
  app.delete(`${p}posts/:id/`, { ...write, schema: { ...write.schema, params: idParams } }, async (request, reply) => {
    await limitWrites(request);
    await deletePost(deps.admin, request.params.id, request.log);
    changed(request, request.params.id);
    return reply.status(204).send();
  });

  // An image for posts to show: kept in the owner's name (an integration has no account of its own), answered with its URL.
  app.post(`${p}images/upload/`, { config: neverCached, schema: { hide: true } }, async (request, reply) => {
    await limitWrites(request);
    const owner = await deps.admin.writing.defaultAuthor();
    if (!owner) throw new GhostError(422, 'ValidationError', 'The site has no owner yet to keep the image.');
    const { file, ref } = await readImageForm(request);
    const url = await deps.admin.writing.uploadImage(owner.id, file, request.log);
    return reply.status(201).send({ images: [{ url: new URL(url, `${deps.admin.publicUrl}/`).href, ref: ref ?? null }] });
  });

  app.get(`${p}site/`, { config: neverCached, schema: { hide: true } }, async () => {
    const settings = await deps.admin.settings();
    return { site: { title: settings.siteName, description: settings.description, logo: null, icon: null, accent_color: settings.accentColour, locale: 'en', url: `${deps.admin.publicUrl}/`, version: '6.0' } };
  });

  // What Ghost's Admin API has beyond this (users, members, roles, themes…): not here.
  app.all(`${p}*`, { config: neverCached, schema: { hide: true } }, async () => {
    throw new GhostError(404, 'NotFoundError', 'Resource not found: this site’s Admin API has posts, images and site.');
  });
};

/** Ghost's upload form: the image in `file`, an optional `ref` echoed back (`purpose` is read and ignored). */
async function readImageForm(request: FastifyRequest): Promise<{ file: UploadedFile; ref?: string }> {
  if (!request.isMultipart()) throw new GhostError(415, 'UnsupportedMediaTypeError', 'Send the image as multipart/form-data in the field file.');
  let file: UploadedFile | undefined;
  let ref: string | undefined;
  for await (const part of request.parts({ limits: IMAGE_FORM_LIMITS })) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      if (part.file.truncated) throw imageTooLarge();
      if (part.fieldname === 'file' && !file) file = { filename: part.filename || 'image', data };
    } else if (part.fieldname === 'ref') ref = String(part.value);
  }
  if (!file || file.data.length === 0) throw new GhostError(422, 'ValidationError', 'Please select an image (the field file).');
  return { file, ref };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The integration whose Admin API key signed the request (Ghost's Admin API only). */
    integrationId: string;
  }
}
