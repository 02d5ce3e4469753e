import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { LISTS_TAG, STATIC_TAG } from '../../shared/cache-tags.js';
import {
  aboutInputSchema,
  faqInputSchema,
  newSitePageSchema,
  pagePreviewInputSchema,
  pagePreviewSchema,
  sitePageParamsSchema,
  sitePageSchema,
  sitePagesAdminSchema,
  sitePageUpdateSchema,
  siteTextsSchema,
} from '../../shared/site-pages-schema.js';
import type { AppDeps } from '../app-deps.js';
import { recordAudit } from '../core/audit-log.js';
import { cachedAs, privateAnswer, STATIC } from '../cache/route-caching.js';
import { conflict, notFound } from '../errors.js';
import { deleteSitePage, deleteSiteText, insertSitePage, sitePageBySlug, updateSitePage, writeSiteText } from './site-pages.repository.js';
import { aboutToStore, faqToStore, pageHtml, sitePagesForAdmin, siteTexts, storedAboutOf, storedFaqOf } from './site-pages.service.js';

/** About, Support and the owner's pages are kept under `static`; the sitemap (lists) names the pages. */
const PAGES_CHANGED = [STATIC_TAG, LISTS_TAG] as const;
const NO_SUCH_PAGE = 'There is no such page.';

/** What anyone reads: the owner's About and Support texts, and their pages (issue 58). */
export const sitePagesPublicRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/api/site-texts',
    { config: cachedAs(STATIC), schema: { tags: ['pages'], summary: "The owner's About text and Support questions as HTML; null for the spec's", response: { 200: siteTextsSchema } } },
    async () => siteTexts(deps.db),
  );

  app.get(
    '/api/pages/:slug',
    {
      config: cachedAs(STATIC),
      schema: { tags: ['pages'], summary: 'A page the owner wrote, as sanitised HTML', params: sitePageParamsSchema, response: { 200: sitePageSchema, 404: apiErrorSchema } },
    },
    async (request) => {
      const page = await sitePageBySlug(deps.db, request.params.slug);
      if (!page) throw notFound(NO_SUCH_PAGE);
      return { slug: page.slug, title: page.title, html: page.html, updatedAt: new Date(page.updated_at).toISOString() };
    },
  );
};

/**
 * The 'Pages' box of /admin (issue 44's context: owner and administrators; everyone else gets a
 * 404). Every change is in the audit log, in the change's transaction, and drops the cached pages.
 */
export const sitePagesAdminRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const actorOf = (user: { id: string; email: string }) => ({ id: user.id, email: user.email });
  const changed = () => deps.contentChanges.changed(PAGES_CHANGED);

  app.get(
    '/api/admin/pages',
    { schema: { tags: ['admin'], summary: "The About text, the Support questions and the owner's pages, as Markdown", response: { 200: sitePagesAdminSchema, 404: apiErrorSchema } } },
    async () => sitePagesForAdmin(deps.db, (await deps.siteSettings.get()).showAuthorsBy),
  );

  app.post(
    '/api/admin/pages/preview',
    { config: privateAnswer, schema: { tags: ['admin'], summary: 'Markdown as a page would show it, without saving', body: pagePreviewInputSchema, response: { 200: pagePreviewSchema, 400: apiErrorSchema, 404: apiErrorSchema } } },
    async (request) => ({ html: pageHtml(request.body.markdown.trim(), deps.storage) }),
  );

  app.put(
    '/api/admin/site-texts/about',
    { config: privateAnswer, schema: { tags: ['admin'], summary: "Saves the About page's whole text (Markdown)", body: aboutInputSchema, response: { 204: z.null(), 400: apiErrorSchema, 404: apiErrorSchema } } },
    async (request, reply) => {
      const after = aboutToStore(request.body.markdown, deps.storage);
      await deps.db.transaction().execute(async (trx) => {
        const before = await storedAboutOf(trx, { forUpdate: true });
        await writeSiteText(trx, 'about', after);
        await recordAudit(trx, { actor: actorOf(request.user), action: 'page.update', subject: 'about', before: before?.markdown ?? null, after: after.markdown });
      });
      await changed();
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/api/admin/site-texts/faq',
    { config: privateAnswer, schema: { tags: ['admin'], summary: "Saves the Support page's questions and answers, in order", body: faqInputSchema, response: { 204: z.null(), 400: apiErrorSchema, 404: apiErrorSchema } } },
    async (request, reply) => {
      const after = faqToStore(request.body.entries, deps.storage);
      await deps.db.transaction().execute(async (trx) => {
        const before = await storedFaqOf(trx, { forUpdate: true });
        await writeSiteText(trx, 'faq', after);
        await recordAudit(trx, { actor: actorOf(request.user), action: 'page.update', subject: 'faq', before: before?.entries.map(({ question, answer }) => ({ question, answer })) ?? null, after: request.body.entries });
      });
      await changed();
      return reply.status(204).send(null);
    },
  );

  for (const key of ['about', 'faq'] as const) {
    app.delete(
      `/api/admin/site-texts/${key}`,
      { config: privateAnswer, schema: { tags: ['admin'], summary: `Puts the spec's ${key === 'about' ? 'About text' : 'Support questions'} back`, response: { 204: z.null(), 404: apiErrorSchema } } },
      async (request, reply) => {
        await deps.db.transaction().execute(async (trx) => {
          await deleteSiteText(trx, key);
          await recordAudit(trx, { actor: actorOf(request.user), action: 'page.reset', subject: key });
        });
        await changed();
        return reply.status(204).send(null);
      },
    );
  }

  app.post(
    '/api/admin/pages',
    { config: privateAnswer, schema: { tags: ['admin'], summary: 'Makes a page at /page/<slug>', body: newSitePageSchema, response: { 201: sitePageSchema, 400: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema } } },
    async (request, reply) => {
      const { slug, title, markdown } = request.body;
      const html = pageHtml(markdown, deps.storage);
      await deps.db.transaction().execute(async (trx) => {
        if (!(await insertSitePage(trx, { slug, title, markdown, html }))) throw conflict(`There is already a page at /page/${slug}.`);
        await recordAudit(trx, { actor: actorOf(request.user), action: 'page.create', subject: slug, after: { title, markdown } });
      });
      await changed();
      return reply.status(201).send({ slug, title, html, updatedAt: new Date().toISOString() });
    },
  );

  app.put(
    '/api/admin/pages/:slug',
    { config: privateAnswer, schema: { tags: ['admin'], summary: "Saves a page's title and text", params: sitePageParamsSchema, body: sitePageUpdateSchema, response: { 204: z.null(), 400: apiErrorSchema, 404: apiErrorSchema } } },
    async (request, reply) => {
      const { slug } = request.params;
      const { title, markdown } = request.body;
      await deps.db.transaction().execute(async (trx) => {
        const before = await sitePageBySlug(trx, slug, { forUpdate: true });
        if (!before) throw notFound(NO_SUCH_PAGE);
        await updateSitePage(trx, slug, { title, markdown, html: pageHtml(markdown, deps.storage) });
        await recordAudit(trx, { actor: actorOf(request.user), action: 'page.update', subject: slug, before: { title: before.title, markdown: before.markdown }, after: { title, markdown } });
      });
      await changed();
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/api/admin/pages/:slug',
    { config: privateAnswer, schema: { tags: ['admin'], summary: 'Removes a page', params: sitePageParamsSchema, response: { 204: z.null(), 404: apiErrorSchema } } },
    async (request, reply) => {
      const { slug } = request.params;
      await deps.db.transaction().execute(async (trx) => {
        const before = await sitePageBySlug(trx, slug, { forUpdate: true });
        if (!before) throw notFound(NO_SUCH_PAGE);
        await deleteSitePage(trx, slug);
        await recordAudit(trx, { actor: actorOf(request.user), action: 'page.delete', subject: slug, before: { title: before.title, markdown: before.markdown } });
      });
      await changed();
      return reply.status(204).send(null);
    },
  );
};
