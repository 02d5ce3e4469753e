import { betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import type { FastifyBaseLogger } from 'fastify';
// Each plugin from its own entry: `better-auth/plugins` loads every plugin Better Auth has
// (about 10 MB of resident memory more, measured in docs/memory.md).
import { emailOTP } from 'better-auth/plugins/email-otp';
import { magicLink } from 'better-auth/plugins/magic-link';
import type { Kysely } from 'kysely';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../shared/constants.js';
import { messages } from '../../shared/messages.js';
import type { AppDeps } from '../app-deps.js';
import type { Config, SocialProvider } from '../config.js';
import type { Database } from '../db/schema.js';
import type { Mailer, MailMessage } from '../mail/mailer.js';
import { accountCreatedJob } from '../core/site-events.js';
import { enqueueJob } from '../queue/job-queue.js';
import { isAccountSuspended } from './account.repository.js';
import { hashPassword, verifyPassword } from './password-hashing.js';
import { noteSignIn } from './new-browser.js';
import { authRateLimitStorage } from '../rate-limit/rate-limit.js';
import { secondFactorHooks, secondFactorPlugins } from './second-factor.js';
import { mustEnrolSecondFactor } from './staff-second-factor.js';
import { ADDRESS_PROVING_SIGN_INS, accountCreated, mayRegister, newAddressOfMagicLink, termsForNewAccount } from '../core/registration.js';
import { seatProvenOwnerEmail } from '../core/ownership.js';
import { createSiteSettings, type SiteSettingsAccess } from '../core/site-settings.js';

/** The header our Fastify adapter sets to the client address Fastify trusts (see auth.routes.ts). */
export const CLIENT_IP_HEADER = 'x-blog-client-ip';
/** Links and codes expire within 10 minutes. */
export const TOKEN_TTL_SECONDS = 10 * 60;
/** Wrong guesses a one-time code allows before it is locked. */
export const OTP_ALLOWED_ATTEMPTS = 3;

/**
 * Per-IP limits of Better Auth's own limiter (counters in the `rateLimit` table). The first
 * matching key wins, so specific paths come before the wildcards that would also match them.
 */
export const AUTH_IP_RATE_LIMITS: Record<string, { window: number; max: number }> = {
  '/sign-in/magic-link': { window: 60, max: 5 },
  '/sign-in/email-otp': { window: 60, max: 10 },
  '/sign-in/*': { window: 60, max: 10 },
  '/sign-up/*': { window: 60, max: 5 },
  '/request-password-reset': { window: 60, max: 5 },
  '/reset-password': { window: 60, max: 10 },
  '/change-password': { window: 60, max: 5 },
  '/email-otp/send-verification-otp': { window: 60, max: 5 },
  '/email-otp/*': { window: 60, max: 10 },
  '/magic-link/*': { window: 60, max: 10 },
  '/verify-email': { window: 60, max: 10 },
};

/** The spec's provider names under Better Auth's own ids (`config.ts` refuses the others). */
const BETTER_AUTH_PROVIDER_IDS: Record<Exclude<SocialProvider, 'keycloak' | 'bitbucket' | 'workos'>, string> = {
  google: 'google',
  facebook: 'facebook',
  twitter: 'twitter',
  apple: 'apple',
  github: 'github',
  gitlab: 'gitlab',
  discord: 'discord',
  azure: 'microsoft',
  linkedin: 'linkedin',
  notion: 'notion',
  slack: 'slack',
  spotify: 'spotify',
  twitch: 'twitch',
  kakao: 'kakao',
};

export interface SocialProviderButton {
  /** The id Better Auth's `signIn.social` takes. */
  id: string;
  /** The spec's name of the provider. */
  name: SocialProvider;
}

/** The configured social providers, in the spec's order, as the sign-in form offers them. */
export function configuredSocialProviders(config: Config): SocialProviderButton[] {
  return Object.keys(config.socialProviders).map((name) => ({
    id: BETTER_AUTH_PROVIDER_IDS[name as keyof typeof BETTER_AUTH_PROVIDER_IDS],
    name: name as SocialProvider,
  }));
}

/** `RATE_LIMIT_SCALE` applies to Better Auth's limits as to ours. */
const scaleMax = (max: number, scale: number) => Math.max(1, Math.round(max * scale));

export interface AuthDeps {
  config: Config;
  db: Kysely<Database>;
  mailer: Mailer;
  /** Better Auth's messages go to the app's log, as one line of JSON like everything else. */
  log: FastifyBaseLogger;
  /** Who may sign up, and with which role (issue 44); the app's own accessor, else one of its own. */
  siteSettings?: SiteSettingsAccess;
  /** How a new password is hashed: scrypt (`password-hashing.ts`) unless a test app brings its own. */
  hashPassword?: (password: string) => Promise<string>;
}

export function createAuth({ config, db, mailer, log, siteSettings, hashPassword: hash = hashPassword }: AuthDeps) {
  const registration = { db, config, siteSettings: siteSettings ?? createSiteSettings({ db, config }) };
  const secure = config.publicUrl.startsWith('https://');
  const socialProviders = Object.fromEntries(
    configuredSocialProviders(config).map(({ id, name }) => [id, config.socialProviders[name]!]),
  );
  const link = (view: string, token: string) => `${config.publicUrl}/auth?view=${view}&token=${encodeURIComponent(token)}`;
  // Returned, not awaited by us: Better Auth hands it to `backgroundTasks`, so a request for a
  // registered address answers as fast as one for an unknown address (no timing oracle).
  const send = (message: MailMessage) => mailer.send(message);
  // The code that turns two-factor off is checked by the plugin's own endpoints, once `auth` exists.
  const verifyCode = async (code: string, headers: Headers) => {
    if (/^\d{6}$/.test(code)) await auth.api.verifyTOTP({ body: { code }, headers });
    else await auth.api.verifyBackupCode({ body: { code, disableSession: true }, headers });
  };
  const secondFactor = secondFactorHooks({
    config,
    db,
    log,
    mailer,
    siteSettings: registration.siteSettings,
    verifyCode,
    mustEnrol: (user) => mustEnrolSecondFactor({ config, db }, user),
  });

  const auth = betterAuth({
    // Read only where the plugins name the site (issuer, passkey); second-factor.ts writes the settings' name there.
    appName: 'Blogging Site',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    database: { db, type: 'postgres' },
    trustedOrigins: [config.publicUrl],
    telemetry: { enabled: false },
    logger: {
      level: 'warn',
      log: (level, message, ...args) => log[level]({ source: 'better-auth', details: args.length > 0 ? args : undefined }, message),
    },
    // Errors its router catches would otherwise be printed by Better Auth's default logger (coloured
    // text, not this one) or by better-call (`# SERVER_ERROR`): an error answer goes back as it is,
    // any other error is thrown to our route, whose error handler logs it (auth.routes.ts).
    onAPIError: { throw: true },
    // The account's role (issue 44) is Better Auth's admin plugin's column; nobody sets it by signing up.
    user: { additionalFields: { role: { type: 'string', required: false, input: false, defaultValue: 'author' } } },
    // Better Auth's own freshness check (a session under a day old, for a passkey or unlinking) is off:
    // auth/fresh-proof.ts holds those paths and more, with 5 minutes and a proof that renews it.
    session: { freshAge: 0 },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: config.requireEmailVerification,
      autoSignIn: !config.requireEmailVerification,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      resetPasswordTokenExpiresIn: TOKEN_TTL_SECONDS,
      revokeSessionsOnPasswordReset: true,
      password: { hash, verify: verifyPassword },
      sendResetPassword: ({ user, token }) =>
        send({
          to: user.email,
          subject: 'Reset your password',
          text: `Someone asked to reset the password of your account.\n\nOpen this link and choose a new password on the page (it works once, for 10 minutes):\n${link('update_password', token)}\n\nIf it was not you, ignore this e-mail.\n`,
        }),
      // Sign-up answers the same for a registered address; its owner learns of the attempt here.
      onExistingUserSignUp: ({ user }) =>
        send({
          to: user.email,
          subject: 'You already have an account',
          text: `Someone tried to sign up with this e-mail address, but it already has an account.\n\nSign in here: ${config.publicUrl}/auth\nForgot your password? Ask for a reset link here: ${config.publicUrl}/auth?view=forgotten_password\n\nIf it was not you, ignore this e-mail.\n`,
        }),
    },
    emailVerification: {
      sendOnSignUp: config.requireEmailVerification,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      // The confirmation link proved the address (issue 56): OWNER_EMAIL's account takes the seat
      // with every earlier way in removed; the browser that confirmed is signed in afresh.
      afterEmailVerification: async (user) => {
        await seatProvenOwnerEmail(db, config.ownerEmail, user.id);
      },
      expiresIn: TOKEN_TTL_SECONDS,
      sendVerificationEmail: ({ user, token }) =>
        send({
          to: user.email,
          subject: 'Confirm your e-mail address',
          text: `Welcome! Confirm your e-mail address to finish signing up.\n\nOpen this link and press the button on the page (it works for 10 minutes):\n${link('confirm_email', token)}\n`,
        }),
    },
    plugins: [
      magicLink({
        expiresIn: TOKEN_TTL_SECONDS,
        storeToken: 'hashed',
        sendMagicLink: async ({ email, token }, ctx) => {
          const sending = send({
            to: email,
            subject: 'Your sign-in link',
            text: `Open this link and press the button on the page to sign in (it works once, for 10 minutes):\n${link('magic_link_confirm', token)}\n\nIf you did not ask for it, ignore this e-mail.\n`,
          });
          await (ctx ? ctx.context.runInBackgroundOrAwait(sending) : sending);
        },
      }),
      emailOTP({
        expiresIn: TOKEN_TTL_SECONDS,
        allowedAttempts: OTP_ALLOWED_ATTEMPTS,
        storeOTP: 'hashed',
        sendVerificationOTP: ({ email, otp }) =>
          send({
            to: email,
            subject: 'Your sign-in code',
            text: `Your one-time sign-in code is ${otp}\n\nIt works once, for 10 minutes. If you did not ask for it, ignore this e-mail.\n`,
          }),
      }),
      ...secondFactorPlugins(config),
    ],
    socialProviders,
    hooks: {
      // Changing the password ends the account's other sessions, always (issue 45): whoever knew
      // the old one is signed out everywhere but here.
      before: createAuthMiddleware(async (ctx) => {
        // A second step's body without `trustDevice` (auth/second-factor.ts): that request goes on as changed.
        const secondStep = await secondFactor.before(ctx);
        if (secondStep) return secondStep;
        // Registration by invitation or closed (issue 44): e-mail sign-up refuses an address that
        // may not register before Better Auth looks it up, so a registered address answers the same.
        // A magic link's page asks with `fetch`, which cannot read the redirect Better Auth answers a
        // refused account with: a new address that may not register is refused here, in words.
        const signingUp =
          ctx.path === '/sign-up/email' ? String((ctx.body as { email?: unknown } | undefined)?.email ?? '')
          : ctx.path === '/magic-link/verify' ? await newAddressOfMagicLink(db, String(ctx.query?.token ?? ''))
          : null;
        if (signingUp) {
          const allowed = await mayRegister(registration, signingUp, ctx.path);
          if (allowed !== true) throw allowed;
        }
        if (ctx.path !== '/change-password') return;
        return { context: { ...ctx, body: { ...(ctx.body as Record<string, unknown>), revokeOtherSessions: true } } };
      }),
      // Second factors (auth/second-factor.ts): every way of signing in asks for one, a code counts once.
      after: createAuthMiddleware(async (ctx) => {
        const answer = await secondFactor.after(ctx);
        // A link or code just proved the address (issue 56): OWNER_EMAIL's account takes the seat,
        // keeping only this session; not while a second step is pending (the challenge took it).
        const made = ctx.context.newSession;
        if (made && ADDRESS_PROVING_SIGN_INS.has(ctx.path)) await seatProvenOwnerEmail(db, config.ownerEmail, made.user.id, made.session.token);
        return answer;
      }),
    },
    databaseHooks: {
      // Every way of creating an account ends here (issue 44): the owner, an invitation's role, the
      // site's default role, or a refusal when registration is by invitation or closed. Once it is
      // committed, its event (core/site-events.ts; webhooks' `member.added`) is queued.
      user: {
        create: {
          before: async (user, ctx) => ({ data: { ...user, ...(await termsForNewAccount(registration, user.email, ctx?.path)) } }),
          after: async (user, ctx) => {
            await accountCreated(registration, user, ctx?.path);
            await enqueueJob(db, accountCreatedJob(user.id));
          },
        },
      },
      session: {
        create: {
          // Every way of signing in (password, link, code, social, sign-up) ends in a new session:
          // refusing it here refuses a suspended account on all of them.
          before: async (session) => {
            if (await isAccountSuspended(db, session.userId)) {
              throw APIError.from('FORBIDDEN', { message: messages.accountSuspended, code: 'ACCOUNT_SUSPENDED' });
            }
          },
          // A browser the account has not used before: its owner is told (auth/new-browser.ts).
          // Queued mail; a failure here is logged, never a failed sign-in.
          after: async (session) => {
            await noteSignIn({ db, mailer, config, log, siteSettings: registration.siteSettings }, session).catch((err: unknown) => log.error({ err }, 'could not note the sign-in’s browser'));
          },
        },
      },
    },
    rateLimit: {
      // Better Auth turns its limiter off outside production; ours is on in every mode.
      enabled: true,
      // Our counters' table, the address hashed (rate-limit/rate-limit.ts): Better Auth's own table keeps it plain.
      customStorage: authRateLimitStorage({ db, secret: config.authSecret }),
      window: 60,
      max: scaleMax(100, config.rateLimitScale),
      customRules: Object.fromEntries(
        Object.entries(AUTH_IP_RATE_LIMITS).map(([path, rule]) => [path, { ...rule, max: scaleMax(rule.max, config.rateLimitScale) }]),
      ),
    },
    advanced: {
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER], ipv6Subnet: 64 },
      // Better Auth skips its Origin check when NODE_ENV is test; tests must see the real thing.
      disableOriginCheck: false,
      backgroundTasks: {
        // Better Auth has already attached a catch that logs a failed send.
        handler: (task) => void task,
      },
    },
  });
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;

/** The app's parts as the auth feature's routes see them: Better Auth's whole instance, its API included (other features see `AuthHandle`). */
export type AuthAppDeps = Omit<AppDeps, 'auth'> & { auth: Auth };
