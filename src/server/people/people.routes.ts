import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import {
  invitationInputSchema,
  invitationListSchema,
  invitationSchema,
  ownershipTransferSchema,
  peoplePageSchema,
  peopleQuerySchema,
  personDeletionSchema,
  roleChangeSchema,
  suspensionSchema,
} from '../../shared/people-schema.js';
import type { AppDeps } from '../app-deps.js';
import { EVERYTHING, changes } from '../cache/route-caching.js';
import { removeStoredImage } from '../images/stored-image.js';
import { NoSuchAccountError, transferOwnership } from '../core/ownership.js';
import { badRequest } from '../errors.js';
import { changeRole, deletePerson, invite, listInvitations, listPeople, revokeInvitation, setSuspension, type SuspendAccount } from './people.service.js';

const idParams = z.object({ id: z.string() });
const done = z.object({ ok: z.literal(true) });

/**
 * /admin's People (issue 44): every account, its role, suspension and deletion, invitations, and
 * the owner's hand-over. Only `people:manage` holders (owner, administrators) see these routes;
 * everyone else gets the 404 of a page that does not exist. Every action is audit-logged.
 */
export const peopleRoutes: FastifyPluginAsyncZod<AppDeps & { suspendAccount: SuspendAccount }> = async (app, deps) => {
  const serviceDeps = { db: deps.db, config: deps.config, mailer: deps.mailer };
  // The account's remembered sessions in this process go at once (the role's notice reaches the others).
  const forget = (userId: string) => deps.sessions.forgetUser(userId);

  app.get(
    '/api/admin/people',
    {
      schema: { tags: ['people'], summary: 'Every account, newest first, with its role, blogs and last visit; `search` by e-mail or name', querystring: peopleQuerySchema, response: { 200: peoplePageSchema, 404: apiErrorSchema } },
    },
    async (request) => listPeople(serviceDeps, request.query),
  );

  app.put(
    '/api/admin/people/:id/role',
    {
      schema: { tags: ['people'], summary: "Give an account a role (not the owner's; administrators only by the owner)", params: idParams, body: roleChangeSchema, response: { 200: done, 403: apiErrorSchema, 404: apiErrorSchema } },
    },
    async (request) => {
      await changeRole(serviceDeps, request.user, request.params.id, request.body.role);
      forget(request.params.id);
      return { ok: true as const };
    },
  );

  app.put(
    '/api/admin/people/:id/suspension',
    {
      config: changes(EVERYTHING),
      schema: { tags: ['people'], summary: 'Suspend or unsuspend an account (as moderation does)', params: idParams, body: suspensionSchema, response: { 200: done, 400: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema } },
    },
    async (request) => {
      await setSuspension({ ...serviceDeps, suspendAccount: deps.suspendAccount }, request.user, request.params.id, request.body);
      if (request.body.suspended) forget(request.params.id);
      return { ok: true as const };
    },
  );

  app.delete(
    '/api/admin/people/:id',
    {
      config: changes(EVERYTHING),
      schema: { tags: ['people'], summary: 'Delete an account; its blogs are removed or given to another account', params: idParams, body: personDeletionSchema, response: { 200: done, 400: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema } },
    },
    async (request) => {
      const imageKeys = await deletePerson(serviceDeps, request.user, request.params.id, request.body);
      forget(request.params.id);
      for (const key of imageKeys) {
        await removeStoredImage(deps.storage, key).catch((err: unknown) => request.log.error({ err, key }, 'account deleted, but an image could not be removed from storage'));
      }
      return { ok: true as const };
    },
  );

  app.get(
    '/api/admin/invitations',
    {
      schema: { tags: ['people'], summary: 'Pending invitations', response: { 200: invitationListSchema, 404: apiErrorSchema } },
    },
    async () => ({ items: await listInvitations(serviceDeps) }),
  );

  app.post(
    '/api/admin/invitations',
    {
      schema: { tags: ['people'], summary: 'Invite an address with a role: a single-use link for seven days, mailed', body: invitationInputSchema, response: { 201: invitationSchema, 400: apiErrorSchema, 403: apiErrorSchema, 409: apiErrorSchema } },
    },
    async (request, reply) => reply.status(201).send(await invite(serviceDeps, request.user, request.body)),
  );

  app.delete(
    '/api/admin/invitations/:id',
    {
      schema: { tags: ['people'], summary: 'Revoke a pending invitation', params: idParams, response: { 200: done, 404: apiErrorSchema } },
    },
    async (request) => {
      await revokeInvitation(serviceDeps, request.user, request.params.id);
      return { ok: true as const };
    },
  );

};

/** The owner's hand-over of the site (`ownership:transfer`; everyone else gets the site's 404). */
export const ownershipRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.post(
    '/api/admin/ownership',
    {
      schema: { tags: ['people'], summary: 'Hand the site to another account (the owner only); the owner becomes an administrator', body: ownershipTransferSchema, response: { 200: done, 400: apiErrorSchema, 404: apiErrorSchema } },
    },
    async (request) => {
      const actor = request.user;
      const { changed } = await transferOwnership(deps.db, request.body.email, { id: actor.id, email: actor.email }).catch((err: unknown) => {
        throw err instanceof NoSuchAccountError ? badRequest(err.message, 'NO_SUCH_ACCOUNT') : err;
      });
      // The account's remembered sessions in this process go at once (its new role's notice reaches the others).
      if (changed) deps.sessions.forgetUser(actor.id);
      return { ok: true as const };
    },
  );
};
