import type { FastifyRequest } from 'fastify';
import { isAPIError } from 'better-auth/api';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountSchema, accountSessionsSchema, authProvidersSchema, deleteAccountSchema, freshProofSchema, NOT_ME_DONE, notMeInputSchema } from '../../shared/account-schema.js';
import type { AuthAppDeps } from './auth.js';
import { clientKey } from '../rate-limit/rate-limit.js';
import { ownProfileSchema, profileInputSchema } from '../../shared/profile-schema.js';
import { deleteAccount, getAccount, getProfile, saveProfile } from './account.service.js';
import { configuredSocialProviders } from './auth.js';
import { endAccountSession, endOtherSessions, listAccountSessions } from './account-sessions.js';
import { signOutNotMe } from './new-browser.js';
import { AUTH_ADDRESS_LIMITS } from './auth-guards.js';
import { proveFresh } from './fresh-proof.js';
import { SECOND_FACTOR_CODE_LIMIT } from './auth-guards.js';
import { idParams } from '../http/ids.js';
import { apiErrorSchema } from '../../shared/api-error.js';
import { AppError } from '../errors.js';
import { EVERYTHING, LISTS, changes, neverCached, privateAnswer } from '../cache/route-caching.js';
import { ownDataRead } from '../cache/own-data-read.js';
import { limitedPerUser } from '../core/visitor-contexts.js';

export const DELETE_ACCOUNT_RATE_LIMITS = {
  perUser: { max: 5, windowSeconds: 15 * 60 },
  perClient: { max: 10, windowSeconds: 15 * 60 },
};
/** 'This wasn't me', per client: a person presses it once. */
const NOT_ME_RATE_LIMIT = { max: 10, windowSeconds: 15 * 60 };
const TOO_MANY_DELETES = 'Too many attempts to delete this account. Please wait 15 minutes and try again.';
/** Passwords tried to prove it is you, per account: a person needs one or two. */
export const FRESH_PROOF_PASSWORD_LIMIT = { max: 5, windowSeconds: 15 * 60 };

/** Saving the profile, per user: far more than anyone edits by hand; a stop for a script trying handles. */
export const PROFILE_UPDATE_RATE_LIMIT = { max: 30, windowSeconds: 10 * 60 };
const TOO_MANY_PROFILE_UPDATES = 'You have changed your profile many times in a short time. Please wait a few minutes and try again.';


/** The account and session the signed-in context let through. */
const signedIn = (request: FastifyRequest) => ({ user: request.user, session: request.userSession });

/** The account screens' own API, beside Better Auth's endpoints at /api/auth/*: what anyone may ask. */
export const accountRoutes: FastifyPluginAsyncZod<AuthAppDeps> = async (app, deps) => {
  const providers = configuredSocialProviders(deps.config);

  app.get(
    '/api/auth-providers',
    {
      config: neverCached,
      schema: {
        tags: ['account'],
        summary: 'The social sign-in providers this site is configured with, and whether e-mail addresses need confirming',
        response: { 200: authProvidersSchema },
      },
    },
    async () => ({ providers, emailVerificationRequired: deps.config.requireEmailVerification }),
  );

  app.post(
    '/api/account/not-me',
    {
      config: privateAnswer,
      schema: {
        tags: ['account'],
        summary: "'This wasn't me' from a new sign-in's e-mail: signs that browser out and mails a link to choose a new password (no sign-in needed: the e-mail's token says whose)",
        body: notMeInputSchema,
        response: { 200: z.object({ message: z.string() }), 400: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request) => {
      await deps.limiter.enforce(`not-me:client:${clientKey(request.ip)}`, NOT_ME_RATE_LIMIT, 'Too many attempts. Please wait 15 minutes and try again.');
      const { email, userId } = await signOutNotMe(deps, request.body.token);
      deps.sessions.forgetUser(userId);
      // The reset form's own limit per address (auth-guards.ts), on the same counter: the browser is out either way.
      const { rule, message } = AUTH_ADDRESS_LIMITS['password-reset']!;
      await deps.limiter.enforce(`auth-address:password-reset:${email.toLowerCase()}`, rule, `We signed that browser out of your account. ${message}`);
      await deps.auth.api.requestPasswordReset({ body: { email } });
      return { message: NOT_ME_DONE };
    },
  );
};

/** Reading the account: open to staff who must still enrol a second factor (their Settings page needs it). */
export const accountEnrolmentRoutes: FastifyPluginAsyncZod<AuthAppDeps> = async (app, deps) => {
  app.get(
    '/api/account',
    ownDataRead({ tags: ['account'], summary: 'The signed-in account', response: { 200: accountSchema } }),
    async (request) => getAccount(deps, request.user),
  );
};

/** The signed-in account's own: its profile, its sessions, proving it is you, deleting it. */
export const accountSignedInRoutes: FastifyPluginAsyncZod<AuthAppDeps> = async (app, deps) => {
  app.get(
    '/api/account/profile',
    ownDataRead({
      tags: ['account'],
      summary: "The signed-in account's profile: its handle, display name and bio",
      description: '`handleFromEmail` says whether the handle is still the one made from the e-mail at sign-up.',
      response: { 200: ownProfileSchema, 404: apiErrorSchema },
    }),
    async (request) => getProfile(deps, request.user),
  );

  app.put(
    '/api/account/profile',
    {
      // The author page shows the profile, and every list is where it is linked from.
      config: { ...privateAnswer, ...changes(LISTS), ...limitedPerUser('profile-update:user', PROFILE_UPDATE_RATE_LIMIT, TOO_MANY_PROFILE_UPDATES) },
      schema: {
        tags: ['account'],
        summary: "Change the signed-in account's handle, display name and bio",
        description:
          'The whole profile: `handle` (trimmed and lowercased, then 3 to 30 of `a-z`, `0-9` and `_`, unique), `displayName` (up to 80 characters) and `bio` (plain text, up to 500); an empty, null or missing display name or bio removes it. A handle another account has is a 409.',
        body: profileInputSchema,
        response: { 200: ownProfileSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request) => saveProfile(deps, request.user, request.body),
  );

  app.get(
    '/api/account/sessions',
    ownDataRead({ tags: ['account'], summary: 'Where the account is signed in: each session’s browser, system, address (its last part dropped), start and last use', response: { 200: accountSessionsSchema } }),
    async (request) => ({ items: await listAccountSessions(deps.db, signedIn(request)) }),
  );

  app.delete(
    '/api/account/sessions/:id',
    {
      config: privateAnswer,
      schema: {
        tags: ['account'],
        summary: 'End one of the account’s sessions (the browser using it is signed out)',
        params: idParams,
        response: { 204: z.null(), 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const current = signedIn(request);
      await endAccountSession(deps.db, current, request.params.id);
      deps.sessions.forgetSession(request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/account/sessions/end-others',
    {
      config: privateAnswer,
      schema: {
        tags: ['account'],
        summary: 'End every session of the account but this one',
        response: { 200: z.object({ ended: z.number() }), 401: apiErrorSchema },
      },
    },
    async (request) => {
      const current = signedIn(request);
      const ended = await endOtherSessions(deps.db, current);
      // Every other session of the account, in this process at once; this one is remembered again on its next request.
      deps.sessions.forgetUser(current.user.id);
      return { ended };
    },
  );

  app.post(
    '/api/account/fresh-proof',
    {
      config: privateAnswer,
      schema: {
        tags: ['account'],
        summary: 'Prove it is you (the password, or a code from the authenticator app): for 5 minutes this session may add a passkey or change two-factor authentication',
        description:
          'Adding a passkey, setting up an authenticator app and making new backup codes need a proof from the last 5 minutes: signing in, or this. Those answer 403 `FRESH_PROOF_REQUIRED` without one.',
        body: freshProofSchema,
        response: { 204: z.null(), 400: apiErrorSchema, 401: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const current = signedIn(request);
      // A code counts with every other code the account sends while signed in (auth-guards.ts).
      if (request.body.code) await deps.limiter.enforce(`auth-account:second-factor:${current.user.id}`, SECOND_FACTOR_CODE_LIMIT.rule, SECOND_FACTOR_CODE_LIMIT.message);
      else await deps.limiter.enforce(`fresh-proof:user:${current.user.id}`, FRESH_PROOF_PASSWORD_LIMIT, 'Too many passwords were tried. Please wait 15 minutes and try again.');
      const headers = fromNodeHeaders(request.headers);
      const verifyTotp = (code: string) =>
        deps.auth.api.verifyTOTP({ body: { code }, headers }).then(
          () => true,
          (err: unknown) => {
            if (!isAPIError(err) || err.statusCode >= 500) throw err;
            const code = (err.body as { code?: string } | undefined)?.code;
            if (code === 'INVALID_CODE') return false;
            // A code used already, an account locked: said as Better Auth says it.
            throw new AppError(err.statusCode, code ?? 'INVALID_CODE', err.message);
          },
        );
      await proveFresh({ db: deps.db, verifyTotp }, current, request.body);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/api/account',
    {
      config: changes(EVERYTHING),
      schema: {
        tags: ['account'],
        summary: 'Delete the signed-in account with all its blogs, votes, comments, images and sessions',
        description: 'Needs the password, or (for accounts without one) a session started in the last 15 minutes. The owner is answered 403 `OWNER_HANDS_OVER_FIRST` until the site is handed to another account.',
        body: deleteAccountSchema.optional(),
        response: { 204: z.null(), 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const current = signedIn(request);
      await deps.limiter.enforce(`account-delete:client:${clientKey(request.ip)}`, DELETE_ACCOUNT_RATE_LIMITS.perClient, TOO_MANY_DELETES);
      await deps.limiter.enforce(`account-delete:user:${current.user.id}`, DELETE_ACCOUNT_RATE_LIMITS.perUser, TOO_MANY_DELETES);
      await deleteAccount({ db: deps.db, storage: deps.storage, log: request.log }, current, request.body ?? {});

      // The session is gone with the user; this only expires the browser's cookies.
      const signedOut = await deps.auth.api.signOut({ headers: fromNodeHeaders(request.headers), returnHeaders: true });
      void reply.header('set-cookie', signedOut.headers.getSetCookie());
      return reply.status(204).send(null);
    },
  );
};
