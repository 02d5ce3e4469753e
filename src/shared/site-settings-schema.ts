import { z } from 'zod';
import { roleSchema } from './role-schema.js';

/** Who may create an account (issue 44): anyone, only an invited address, or nobody new. */
export const REGISTRATION_MODES = ['open', 'invitation', 'closed'] as const;
export const registrationSchema = z.enum(REGISTRATION_MODES);
export type Registration = z.infer<typeof registrationSchema>;

export const navigationLinkSchema = z.object({
  label: z.string().trim().min(1).max(40),
  /** A path on the site (`/about`) or an http(s) address. */
  url: z.string().trim().min(1).max(500).regex(/^(\/(?!\/)|https?:\/\/)/, 'A link is a path on the site (/about) or an http(s) address.'),
});

/**
 * The site's settings, as the owner and administrators set them on /admin (issue 44). One row in
 * the database; `SITE_NAME` and the like only seed a fresh site. Every page, feed, e-mail, Open
 * Graph tag, the manifest and the fediverse actor read them through `settings/site-settings.ts`.
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
  navigation: z.array(navigationLinkSchema).max(10),
  footerText: z.string().trim().max(500),
  defaultRole: roleSchema.exclude(['owner', 'administrator']),
  registration: registrationSchema,
  /** New blogs by authors wait for an editor before they are public. */
  reviewNewBlogs: z.boolean(),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;
