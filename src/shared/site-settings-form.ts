import { z } from 'zod';
import { accentContrastProblem } from './colour-contrast.js';
import { ROLES, ROLE_LABELS } from './role-schema.js';
import { navigationLinkSchema, siteSettingsSchema, tipJarUrlSchema, type Registration, type ShowAuthorsBy, type SiteSettings } from './site-settings-schema.js';

/** 'Show authors by''s choices, as the form names them. */
export const SHOW_AUTHORS_BY_LABELS: Record<ShowAuthorsBy, string> = { email: 'E-mail address', name: 'Name' };

/** The roles a new account may start with (owner and administrator are given, never defaults). */
export const DEFAULT_ROLE_CHOICES = ROLES.filter((role) => role !== 'owner' && role !== 'administrator');
export { ROLE_LABELS };

export const REGISTRATION_LABELS: Record<Registration, string> = { open: 'Open', invitation: 'Invitation only', closed: 'Closed' };

/** The form's labels, also used in the API's messages so a refusal names the field as the page does. */
export const SITE_SETTINGS_LABELS = {
  siteName: 'Site name',
  description: 'Description',
  logo: 'Logo',
  icon: 'Icon',
  accentColour: 'Accent colour',
  navigation: 'Navigation',
  footerText: 'Footer text',
  defaultRole: 'Default role for new accounts',
  registration: 'Registration',
  reviewNewBlogs: 'New blogs by authors need review',
  showAuthorsBy: 'Show authors by',
  tipJarUrl: 'Tip jar link',
} as const;

/**
 * `PUT /api/admin/settings`: the whole settings, as the shared schema has them, with messages a
 * person can act on, and an accent colour refused unless white text on it meets WCAG AA.
 */
export const siteSettingsInputSchema = siteSettingsSchema
  .extend({
    siteName: z.string().trim().min(1, 'Add a site name.').max(100, 'The site name is at most 100 characters.'),
    description: z.string().trim().max(300, 'The description is at most 300 characters.'),
    accentColour: z
      .string()
      .regex(/^#[0-9a-f]{6}$/i, 'The accent colour is a colour like #0d6efd.')
      .transform((colour) => colour.toLowerCase())
      .nullable(),
    navigation: z.array(navigationLinkSchema).max(10, 'The navigation has at most 10 links.'),
    footerText: z.string().trim().max(500, 'The footer text is at most 500 characters.'),
    tipJarUrl: tipJarUrlSchema,
  })
  .superRefine((settings, ctx) => {
    const problem = settings.accentColour ? accentContrastProblem(settings.accentColour) : null;
    if (problem) ctx.addIssue({ code: 'custom', path: ['accentColour'], message: problem });
  }) satisfies z.ZodType<SiteSettings, unknown>;

/** What `GET /api/admin/settings` answers: the settings and the URLs of the logo and icon. */
export const siteSettingsAnswerSchema = z.object({
  settings: siteSettingsSchema,
  logoUrl: z.string().nullable(),
  iconUrl: z.string().nullable(),
});
export type SiteSettingsAnswer = z.infer<typeof siteSettingsAnswerSchema>;

export const SITE_IMAGE_KINDS = ['logo', 'icon'] as const;
export type SiteImageKind = (typeof SITE_IMAGE_KINDS)[number];

/** `POST /api/admin/settings/{logo,icon}`: the kept image's id (for the settings) and its URL. */
export const siteImageUploadedSchema = z.object({ id: z.string(), url: z.string() });
export type SiteImageUploaded = z.infer<typeof siteImageUploadedSchema>;
