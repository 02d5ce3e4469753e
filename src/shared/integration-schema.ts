import { z } from 'zod';
import { requiredText } from './required-text.js';

/**
 * Integrations (issue 60, docs/apis.md): a name and the keys of Ghost's Content and Admin APIs,
 * shaped as Ghost's: a Content API key of 26 hex characters, an Admin API key
 * `<24 hex id>:<64 hex secret>`.
 */
export const INTEGRATION_NAME_MAX = 100;
export const newIntegrationSchema = z.object({ name: requiredText('Give the integration a name.', INTEGRATION_NAME_MAX, 'The name is too long.') });
export type NewIntegration = z.infer<typeof newIntegrationSchema>;

export const integrationSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Shown any time, as Ghost shows it: it only reads what is public. */
  contentKey: z.string(),
  /** The Admin API key's id; its secret is shown once, in `CreatedIntegration`. */
  adminKeyId: z.string(),
  /** The address the clients are given (`url`): the site's. */
  apiUrl: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Integration = z.infer<typeof integrationSchema>;

export const integrationListSchema = z.object({ items: z.array(integrationSchema) });
export type IntegrationList = z.infer<typeof integrationListSchema>;

/** The answer of adding an integration or making its keys anew: the only one that carries the Admin API key whole. */
export const createdIntegrationSchema = z.object({ integration: integrationSchema, adminKey: z.string() });
export type CreatedIntegration = z.infer<typeof createdIntegrationSchema>;
