import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { accessSchema } from '../../shared/role-schema.js';
import type { AppDeps } from '../app-deps.js';
import { effectiveRole, permissionsOf } from '../core/roles.js';

/** What the signed-in account may do, for the page's menus (the server checks every request itself). */
export const accessRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/api/access',
    {
      schema: {
        tags: ['people'],
        summary: 'The signed-in account’s role and what it may do (`resource:action`)',
        response: { 200: accessSchema, 401: apiErrorSchema },
      },
    },
    async ({ user }) => {
      const role = effectiveRole(deps.config, user);
      return { role: user.role, effectiveRole: role, permissions: permissionsOf(role) };
    },
  );
};
