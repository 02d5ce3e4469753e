import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../shared/constants.js';
import { messages } from '../../shared/messages.js';
import { invitationAcceptedSchema, invitationAcceptSchema } from '../../shared/people-schema.js';
import type { AppDeps } from '../app-deps.js';
import { badRequest } from '../errors.js';
import { clientKey } from '../rate-limit/rate-limit.js';
import { findUsableInvitationByToken } from '../core/invitations.repository.js';
import { giveAccountToInvitationHolder } from './invitations.service.js';
import { asInvitationHolder } from '../core/registration.js';

/** Far more than one person accepting their invitation needs; a stop for guessing tokens. */
export const INVITATION_ACCEPT_RATE_LIMIT = { max: 10, windowSeconds: 10 * 60 };

/**
 * The invitation link's page (`/auth?view=accept_invitation`) only shows a button: opening the link
 * spends nothing, so a mail scanner that follows every link uses up no invitation. The button posts
 * here with the token and a password. Only this token gives the invitation's role (issue 56): the
 * account is made here as its holder's, its address proven by the link (so no confirmation mail), or,
 * when someone signed up as the address meanwhile, handed to the holder (`invitations.service.ts`).
 */
export const invitationRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.post(
    '/api/invitations/accept',
    {
      schema: {
        tags: ['people'],
        summary: 'Accept an invitation: make the invited account with this password (the token is spent here, never by opening the link)',
        body: invitationAcceptSchema,
        response: { 200: invitationAcceptedSchema, 400: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request) => {
      await deps.limiter.enforce(`invitation-accept:${clientKey(request.ip)}`, INVITATION_ACCEPT_RATE_LIMIT, 'Too many attempts. Please wait a few minutes and try again.');
      const { token, password } = request.body;
      if (password.length < MIN_PASSWORD_LENGTH) throw badRequest(messages.passwordTooShort, 'PASSWORD_TOO_SHORT');
      if (password.length > MAX_PASSWORD_LENGTH) throw badRequest('The password is too long.', 'PASSWORD_TOO_LONG');
      const invitation = await findUsableInvitationByToken(deps.db, token);
      if (!invitation) throw badRequest(messages.invitationInvalid, 'INVITATION_INVALID');
      const context = await deps.auth.$context;
      const passwordHash = await context.password.hash(password);
      const existing = await deps.db.selectFrom('user').select('id').where((eb) => eb(eb.fn('lower', ['email']), '=', invitation.email.toLowerCase())).executeTakeFirst();
      if (existing) {
        if (!(await giveAccountToInvitationHolder(deps.db, invitation, existing.id, passwordHash))) throw badRequest(messages.invitationInvalid, 'INVITATION_INVALID');
        deps.sessions.forgetUser(existing.id);
        return { email: invitation.email };
      }
      // Better Auth's hooks make it (the role, the event) as this token's holder: no sign-up endpoint, so no session and no mail.
      const user = await asInvitationHolder(invitation, () =>
        context.internalAdapter.createUser({ email: invitation.email, name: invitation.email.split('@')[0]!, emailVerified: true }, { method: 'email-password' }),
      );
      await context.internalAdapter.linkAccount({ userId: user.id, providerId: 'credential', accountId: user.id, password: passwordHash });
      const used = await deps.db.selectFrom('invitations').select('accepted_user_id').where('id', '=', invitation.id).executeTakeFirst();
      if (used?.accepted_user_id !== user.id) throw badRequest(messages.invitationInvalid, 'INVITATION_INVALID');
      return { email: invitation.email };
    },
  );
};
