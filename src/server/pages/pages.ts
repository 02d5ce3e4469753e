import { AsyncLocalStorage } from 'node:async_hooks';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PAGE_SCRIPTS_ATTRIBUTE, PAGE_STATE_ID, type ApiTransport, type RenderedPage, type SiteInfo } from '../../shared/page-render.js';
import { declarePageTags } from '../cache/response-cache.plugin.js';
import { preferredEncoding } from '../http/accept-encoding.js';
import type { PageRenderer } from './page-renderer.js';
import { varyOf } from '../http/negotiated-pages.js';

/** Shown when rendering itself fails: plain, with nothing of the error in it. */
const SERVER_ERROR_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Something went wrong</title></head>' +
  '<body><h1>Something went wrong</h1><p>Please try again in a moment.</p><p><a href="/">Go to the home page</a></p></body></html>';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
// Quality 5: close to the best ratio for HTML at a fraction of quality 11's time.
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } };

const SLOTS = ['<!--app-head-->', '<!--app-body-->', '<!--app-state-->'] as const;

/**
 * Puts a rendered page into the template (a function replacement: `$&` in a blog stays as
 * written), and tells the page's loader when to load the app (`<html data-scripts>`).
 */
export function fillTemplate(template: string, page: Extract<RenderedPage, { kind: 'page' }>): string {
  const values = [page.head, page.body, `<script type="application/json" id="${PAGE_STATE_ID}">${page.state}</script>`];
  const filled = SLOTS.reduce((html, slot, i) => html.replace(slot, () => values[i]!), template);
  return filled.replace(/<html\b/, `$& ${PAGE_SCRIPTS_ATTRIBUTE}="${page.scripts}"`);
}

/** Whose page is being rendered: their address, and their session cookie when they are signed in. */
interface Visitor {
  ip: string;
  cookie?: string;
}

/** The same test as the response cache's: a request with a session cookie is a signed-in reader's. */
export function carriesSession(request: FastifyRequest): boolean {
  return request.headers.cookie?.includes('session_token') === true;
}

/**
 * The web app's data calls, made in-process through the app's own routes while a page renders:
 * the same validation, permissions and limits as over HTTP, counted against the visitor's
 * address. A signed-in reader's calls carry their cookie (so the answers are theirs, and the
 * response cache neither serves nor keeps them); an anonymous page's carry none.
 */
function inProcessTransport(app: FastifyInstance, visitors: AsyncLocalStorage<Visitor>): ApiTransport {
  return async (path, init) => {
    const visitor = visitors.getStore();
    const response = await app.inject({
      method: 'GET',
      url: path,
      headers: { accept: 'application/json', ...(visitor?.cookie ? { cookie: visitor.cookie } : {}) },
      remoteAddress: visitor?.ip,
      signal: init.signal ?? undefined,
    });
    const empty = response.statusCode === 204 || response.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(response.rawPayload), {
      status: response.statusCode,
      headers: { 'content-type': String(response.headers['content-type'] ?? 'application/json') },
    });
  };
}

export interface PagesOptions {
  renderer: PageRenderer;
  /** What the page says about the site: the settings as they are now (`settings/site-info.ts`). */
  site: () => Promise<SiteInfo>;
}

/** Creates the handler for page requests (every GET that is not the API, an asset or an upload). */
export function createPageHandler(app: FastifyInstance, { renderer, site }: PagesOptions) {
  const visitors = new AsyncLocalStorage<Visitor>();
  const transport = inProcessTransport(app, visitors);

  return async function renderPageReply(request: FastifyRequest, reply: FastifyReply) {
    const signedIn = carriesSession(request);
    let page: RenderedPage;
    let template: string;
    // A page that says the site waits for its first account is never kept: the next sign-up ends that.
    let keepable: boolean;
    try {
      const [module, siteNow] = await Promise.all([renderer.load(), site()]);
      keepable = !siteNow.firstAccountAwaited;
      module.setApiTransport(transport);
      const url = new URL(request.url, siteNow.publicUrl);
      const visitor: Visitor = signedIn ? { ip: request.ip, cookie: request.headers.cookie } : { ip: request.ip };
      [page, template] = await Promise.all([visitors.run(visitor, () => module.renderPage(url, siteNow, { signedIn })), renderer.template(request.url)]);
    } catch (err) {
      request.log.error({ err }, 'page render failed');
      return reply.status(500).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(SERVER_ERROR_PAGE);
    }
    if (page.kind === 'redirect') return reply.redirect(page.location, page.status);
    // The screen's error page went out in its place: its cause (a loader's failure) is logged here, as any 5xx's.
    if (page.status >= 500) request.log.error({ err: page.error, status: page.status }, 'page rendered as a server error');
    declarePageTags(request, keepable ? page.cacheTags : undefined);
    // A signed-in reader's page is theirs alone: no shared cache (ours or any between) may keep it.
    reply
      .status(page.status)
      .header('cache-control', signedIn ? 'private, no-store' : 'no-cache')
      .header('vary', varyOf(request.url, signedIn ? 'accept-encoding, cookie' : 'accept-encoding'))
      .type('text/html; charset=utf-8');
    // Pages answer from the not-found handler, which @fastify/compress's per-route hooks do not
    // reach, so the page is compressed here.
    const html = Buffer.from(fillTemplate(template, page));
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (!encoding) return reply.send(html);
    return reply.header('content-encoding', encoding).send(await (encoding === 'br' ? brotli(html, BROTLI_OPTIONS) : gzip(html)));
  };
}
