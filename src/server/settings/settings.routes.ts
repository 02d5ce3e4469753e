import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { EVERYTHING_TAG, SITE_TAG } from '../../shared/cache-tags.js';
import {
  SITE_SETTINGS_LABELS,
  siteImageUploadedSchema,
  siteSettingsAnswerSchema,
  siteSettingsInputSchema,
  type SiteImageKind,
  type SiteSettingsAnswer,
} from '../../shared/site-settings-form.js';
import type { SiteSettings } from '../../shared/site-settings-schema.js';
import type { AppDeps } from '../app-deps.js';
import { recordAudit } from '../core/audit-log.js';
import { cachedAs, privateAnswer } from '../cache/route-caching.js';
import { badRequest, notFound } from '../errors.js';
import { readOneImageForm, registerOneImageForm } from '../images/one-image-form.js';
import { iconFileUrl, iconPng, ICON_SIZES, isSiteImageKey, storeSiteImage, type IconSize } from './site-images.js';
import { readSiteSettings } from '../core/site-settings.js';

/** What a save changes: every page, feed and the manifest show the site (`*`), and each process's copy of the settings (`site`). */
const SETTINGS_SAVED = [EVERYTHING_TAG, SITE_TAG] as const;

/**
 * The 'Site' box of /admin (issue 44): read and save the site's settings, upload its logo and
 * icon. Only accounts that may `site:manage` reach these routes; their context gives everyone
 * else the 404 of a page that does not exist (`core/visitor-contexts.ts`).
 */
export const siteSettingsAdminRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  await registerOneImageForm(app);

  const answer = (settings: SiteSettings): SiteSettingsAnswer => ({
    settings,
    logoUrl: settings.logoImageId ? deps.storage.publicUrl(settings.logoImageId) : null,
    iconUrl: settings.iconImageId ? iconFileUrl(settings.iconImageId, 64) : null,
  });

  app.get(
    '/api/admin/settings',
    {
      schema: { tags: ['admin'], summary: "The site's settings (owner and administrators)", response: { 200: siteSettingsAnswerSchema, 404: apiErrorSchema } },
    },
    async () => answer(await deps.siteSettings.get()),
  );

  app.put(
    '/api/admin/settings',
    {
      config: privateAnswer,
      schema: {
        tags: ['admin'],
        summary: "Saves the site's settings (owner and administrators)",
        description:
          'The whole settings. The accent colour (`#rrggbb` or null) is refused unless white text on it has a contrast of at least 4.5:1 (WCAG AA). `logoImageId` and `iconImageId` are ids answered by the uploads, or null. Every save is in the audit log; every page, feed and the manifest show it at once, in every process.',
        body: siteSettingsInputSchema,
        response: { 200: siteSettingsAnswerSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const { user } = request;
      const settings = request.body;
      const saved = await deps.db.transaction().execute(async (trx) => {
        const before = await readSiteSettings(trx, deps.config, { forUpdate: true });
        await checkImage(deps, 'logo', settings.logoImageId, before.logoImageId);
        await checkImage(deps, 'icon', settings.iconImageId, before.iconImageId);
        await deps.siteSettings.save(settings, trx);
        await recordAudit(trx, { actor: { id: user.id, email: user.email }, action: 'settings.update', subject: 'site', before, after: settings });
        return settings;
      });
      // Not only the response cache's `changes`: the settings' copies must go in every process
      // even where the response cache is off (RESPONSE_CACHE_MB=0).
      deps.siteSettings.forget();
      await deps.contentChanges.changed(SETTINGS_SAVED);
      return answer(saved);
    },
  );

  for (const kind of ['logo', 'icon'] as const satisfies readonly SiteImageKind[]) {
    app.post(
      `/api/admin/settings/${kind}`,
      {
        config: privateAnswer,
        schema: {
          tags: ['admin'],
          summary: `Uploads the site's ${kind} (owner and administrators)`,
          description: `multipart/form-data with one file \`image\` (JPEG, PNG, WebP, GIF, TIFF or AVIF, at most 5 MB), kept through the image pipeline. Answers its id, to save as \`${kind}ImageId\`, and its URL; an upload no saved settings name is removed after a grace period.`,
          consumes: ['multipart/form-data'],
          response: { 201: siteImageUploadedSchema, 400: apiErrorSchema, 404: apiErrorSchema, 413: apiErrorSchema, 415: apiErrorSchema },
        },
      },
      async (request, reply) => {
        const { data } = await readOneImageForm(request);
        const id = await storeSiteImage(deps.storage, kind, data);
        return reply.status(201).send({ id, url: kind === 'icon' ? iconFileUrl(id, 64) : deps.storage.publicUrl(id) });
      },
    );
  }
};

/** A logo or icon the settings name is one the uploads kept (or the one already saved). */
async function checkImage(deps: AppDeps, kind: SiteImageKind, id: string | null, current: string | null): Promise<void> {
  if (id === null || id === current) return;
  const label = SITE_SETTINGS_LABELS[kind];
  if (!isSiteImageKey(id, kind) || !(await deps.storage.get(id))) throw badRequest(`${label}: upload the image again; the one named was not found.`);
}

const iconParams = z.object({ file: z.string().regex(/^\d{2,3}\.png$/) });

/**
 * What every visitor's browser asks for about the site: the web manifest and the favicon's sizes,
 * made from the settings and kept by the response cache under `site` (a save drops them).
 */
export const siteFileRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get('/manifest.webmanifest', { schema: { hide: true }, config: cachedAs([SITE_TAG]) }, async (_request, reply) => {
    const settings = await deps.siteSettings.get();
    const icons = settings.iconImageId
      ? ([192, 512] as const).map((size) => ({ src: iconFileUrl(settings.iconImageId!, size), sizes: `${size}x${size}`, type: 'image/png', purpose: 'any' }))
      : [
          { src: '/favicon.png', sizes: '64x64', type: 'image/png' },
          { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
        ];
    const manifest = {
      name: settings.siteName,
      short_name: shortName(settings.siteName),
      description: settings.description || undefined,
      start_url: '/',
      scope: '/',
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: settings.accentColour ?? '#212529',
      icons,
    };
    return reply.type('application/manifest+json; charset=utf-8').header('cache-control', 'no-cache').send(JSON.stringify(manifest));
  });

  app.get('/site-icon/:file', { schema: { hide: true, params: iconParams }, config: cachedAs([SITE_TAG]) }, async (request, reply) => {
    const size = Number(request.params.file.replace('.png', '')) as IconSize;
    const { iconImageId } = await deps.siteSettings.get();
    if (!ICON_SIZES.includes(size) || !iconImageId) throw notFound('The site has no icon of that size.');
    const png = await iconPng(deps.storage, iconImageId, size);
    if (!png) throw notFound('The site has no icon of that size.');
    // The URL carries the icon's version (`?v=`), so browsers may keep it; a new icon has a new URL.
    return reply.type('image/png').header('cache-control', 'public, max-age=86400').send(png);
  });
};

/** A home-screen label: the name when short, else its first word, else its first 12 characters. */
function shortName(name: string): string {
  if (name.length <= 12) return name;
  const first = name.split(/\s+/)[0]!;
  return first.length <= 12 ? first : name.slice(0, 12);
}
