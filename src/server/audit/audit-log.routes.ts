import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { AUDIT_PAGE_SIZE, auditLogPageSchema, auditLogQuerySchema } from '../../shared/audit-log-schema.js';
import type { AppDeps } from '../app-deps.js';
import { auditLogPage } from '../core/audit-log.js';

/** `GET /api/admin/audit-log` (issue 44): owner and administrators only, newest first, a page at a time. */
export const auditLogRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/api/admin/audit-log',
    {
      schema: {
        tags: ['admin'],
        summary: 'The audit log, newest first; `before` (an entry’s id, from `nextBefore`) gives the older page, `kind` one kind of action',
        querystring: auditLogQuerySchema,
        response: { 200: auditLogPageSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => auditLogPage(deps.db, { before: request.query.before, kind: request.query.kind, limit: AUDIT_PAGE_SIZE }),
  );
};
