import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { auditLogRoutes } from './audit-log.routes.js';

/** The audit log, for who manages the site (the entries are written through `core/audit-log.ts`). */
export const auditFeature = defineFeature({
  name: 'audit',
  routes: ({ deps }) => [{ visitors: 'site management', plugin: routes(auditLogRoutes, deps) }],
});
