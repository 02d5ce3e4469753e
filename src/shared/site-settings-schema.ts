import { z } from 'zod';
import { navigationTargetOf } from './navigation-link.js';
import { roleSchema } from './role-schema.js';

/** Who may create an account (issue 44): anyone, only an invited address, or nobody new. */
export const REGISTRATION_MODES = ['open', 'invitation', 'closed'] as const;
export const registrationSchema = z.enum(REGISTRATION_MODES);
export type Registration = z.infer<typeof registrationSchema>;

/**
 * How public pages, feeds, mails and other servers name an author (issue 58): by e-mail, as the
 * spec and its Terms say (the default), or by display name (the handle when there is none).
 */
export const SHOW_AUTHORS_BY = ['email', 'name'] as const;
export const showAuthorsBySchema = z.enum(SHOW_AUTHORS_BY);
export type ShowAuthorsBy = z.infer<typeof showAuthorsBySchema>;

/** A navigation link as saved: a path on the site (`/about`) or an http(s) address elsewhere, named in the refusal (issue 56). */
export const navigationLinkSchema = z
  .object({
    label: z.string().trim().min(1).max(40),
    url: z.string().trim().min(1).max(500),
  })
  .superRefine((link, ctx) => {
    if (navigationTargetOf(link.url).kind !== 'inert') return;
    ctx.addIssue({
      code: 'custom',
      path: ['url'],
      // JSON quoting shows a tab or a newline as \t or \n, so the owner sees what is wrong.
      message: `The navigation link “${link.label}” (${JSON.stringify(link.url)}) is neither a path on the site (/about) nor an http(s) address: backslashes, spaces, control characters and addresses starting with // are refused.`,
    });
  });

/** The spec's tip jar, More's last item until the owner sets another link or none (issue 58). */
export const DEFAULT_TIP_JAR_URL = 'https://www.buymeacoffee.com/';

/** 'Tip jar link' as saved: empty (no tip jar in More), or an http(s) address or a path on the site. */
export const tipJarUrlSchema = z
  .string()
  .trim()
  .max(500, 'The tip jar link is at most 500 characters.')
  .refine((url) => url === '' || navigationTargetOf(url).kind !== 'inert', 'The tip jar link is an http(s) address (https://…) or a path on the site (/support), or empty for none.');

/**
 * A navigation link as read back: any text. A value stored before the rule above (or written past
 * it) must not take the site down or hide the other settings; the navbar renders it inert and the
 * form shows it, to be corrected, since a save checks it again.
 */
const storedNavigationLinkSchema = z.object({ label: z.string(), url: z.string() });

/**
 * The site's settings, as the owner and administrators set them on /admin (issue 44). One row in
 * the database; `SITE_NAME` and the like only seed a fresh site. Every page, feed, e-mail, Open
 * Graph tag, the manifest and the fediverse actor read them through `core/site-settings.ts`.
 */
export const siteSettingsSchema = z.object({
  siteName: z.string().trim().min(1).max(100),
  description: z.string().trim().max(300),
  /** The logo and icon: ids of images kept through the image pipeline, or null. */
  logoImageId: z.string().nullable(),
  iconImageId: z.string().nullable(),
  /** `#rrggbb`, or null for the theme's own. */
  accentColour: z
    .string()
    .regex(/^#[0-9a-f]{6}$/i)
    .nullable(),
  navigation: z.array(storedNavigationLinkSchema).max(10),
  footerText: z.string().trim().max(500),
  defaultRole: roleSchema.exclude(['owner', 'administrator']),
  registration: registrationSchema,
  /** New blogs by authors wait for an editor before they are public. */
  reviewNewBlogs: z.boolean(),
  /** 'Show authors by': how every public surface names an author. */
  showAuthorsBy: showAuthorsBySchema,
  /** More's 'Tip jar' item: '' for none; read back as any text, the navbar leaves out one it cannot link. */
  tipJarUrl: z.string().max(500),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;

/** The settings as a save writes them: every navigation link checked, whoever saves. */
export const siteSettingsToSaveSchema = siteSettingsSchema.extend({ navigation: z.array(navigationLinkSchema).max(10), tipJarUrl: tipJarUrlSchema });
