import { createHmac } from 'node:crypto';
import { passkey } from '@better-auth/passkey';
import { APIError, getSessionFromCtx, isAPIError, type createAuthMiddleware } from 'better-auth/api';
import { deleteSessionCookie } from 'better-auth/cookies';
import { generateRandomString } from 'better-auth/crypto';
import { twoFactor } from 'better-auth/plugins/two-factor';
import { sql, type Kysely } from 'kysely';
import { renderSVG } from 'uqr';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Role } from '../../shared/role-schema.js';
import type { Database } from '../db/schema.js';
import { mailAccountChange, type AccountChange, type AccountChangeMailDeps } from './account-change-mail.js';
import { checkPasswordOf, requireFreshProof } from './fresh-proof.js';

/** Wrong codes an account may send while signing in before it is locked, and for how long (issue 45). */
export const SECOND_FACTOR_LOCKOUT = { maxFailedAttempts: 5, durationSeconds: 15 * 60 };
/** An authenticator code is accepted in its 30-second step and the steps either side: 90 seconds. */
const TOTP_ACCEPTED_MS = 90_000;

/**
 * The `twoFactor` plugin's pending second step, as its own `/sign-in/email` hook writes it and its
 * verify endpoints read it: the signed `two_factor` cookie naming a verification row `2fa-<20
 * random>` whose value is the account's id, beside `2fa-attempts-<that identifier>` counting wrong
 * codes from '0'; both for 10 minutes (its default `twoFactorCookieMaxAge`). The plugin challenges
 * only its own sign-in paths (better-auth/better-auth#10322 and #11287, open), so `challenge` below
 * writes the same for the other ways in: a copy of the plugin's internals. better-auth is pinned
 * to an exact version for it, and `second-factor-format.test.ts` fails on any change of this
 * format (docs/runtime.md, "Upgrading better-auth").
 */
export const PENDING_SECOND_STEP = {
  cookie: 'two_factor',
  identifierPrefix: '2fa-',
  identifierLength: 20,
  attemptsPrefix: '2fa-attempts-',
  firstAttempts: '0',
  seconds: 10 * 60,
} as const;

/**
 * The ways of signing in that the `twoFactor` plugin does not hold itself (it holds
 * `/sign-in/email`): a magic link, an e-mail code, a confirmed address and a social provider.
 * Each makes a session; with two-factor on, it becomes the same pending second step.
 */
const OTHER_SIGN_IN_PATHS = ['/magic-link/verify', '/sign-in/email-otp', '/email-otp/verify-email', '/verify-email', '/sign-in/social'];
const isOtherSignIn = (path: string) => OTHER_SIGN_IN_PATHS.includes(path) || path.startsWith('/callback/');
/** The second steps of a sign-in, whose `trustDevice` would let the browser skip the next one. */
const SECOND_STEP_PATHS = ['/two-factor/verify-totp', '/two-factor/verify-backup-code', '/two-factor/verify-otp'];

export const secondFactorTexts = {
  codeUsed: 'That code has been used already. Wait for the next code from your app.',
  codeRequired: 'Enter a code from your authenticator app, or a backup code, to turn two-factor authentication off.',
  staffMustEnrol: 'Your account is a staff account: set up an authenticator app or a passkey in Settings before doing anything else.',
} as const;

/**
 * Better Auth's `twoFactor` (TOTP and backup codes) and `passkey` plugins, configured for this site.
 * The names they show (the authenticator's issuer, the passkey's relying party) are static options
 * of theirs; the site's name is a setting that can change, so the hooks write it into each answer.
 */
export function secondFactorPlugins(config: Config) {
  const site = new URL(config.publicUrl);
  return [
    twoFactor({
      // An account with no password (magic link, code, provider) confirms with a code instead.
      allowPasswordless: true,
      accountLockout: { enabled: true, ...SECOND_FACTOR_LOCKOUT },
      backupCodeOptions: { amount: 10, length: 10 },
    }),
    // The relying party is the site itself, from PUBLIC_URL.
    passkey({ rpID: site.hostname, origin: site.origin }),
  ];
}

/**
 * An authenticator's `otpauth://` URI (Google's Key URI format) naming `issuer` in its label and
 * its `issuer` parameter: the app lists the account under the site's current name.
 */
export function withIssuer(uri: string, issuer: string): string {
  const url = new URL(uri);
  const label = url.pathname.slice(1);
  // The label is `<issuer>:<account>`, each URI-encoded (an encoded name has no bare colon).
  const account = label.slice(label.indexOf(':') + 1);
  url.searchParams.set('issuer', issuer);
  return `otpauth://${url.host}/${encodeURIComponent(issuer)}:${account}?${url.searchParams.toString()}`;
}

export interface SecondFactorHookDeps extends AccountChangeMailDeps {
  config: Config;
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  /** Better Auth's `verifyTOTP` and `verifyBackupCode`, for the code that turns two-factor off. */
  verifyCode: (code: string, headers: Headers) => Promise<void>;
  /** Whether a signed-in account must set up a second factor first (staff, `STAFF_REQUIRE_SECOND_FACTOR`). */
  mustEnrol: (user: { id: string; email: string; role: Role }) => Promise<boolean>;
}

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** What an after hook sees the endpoint answer: its JSON, or the error it threw. */
const answered = (ctx: HookContext) => ctx.context.returned as unknown;

/**
 * The hooks that make the plugins do what the issue asks beyond their defaults: every way of
 * signing in asks for the second factor; an authenticator code is accepted once; turning
 * two-factor on ends the account's other sessions, turning it off asks for the password (first)
 * and a code; a new way in needs a fresh proof (auth/fresh-proof.ts) and is mailed to the account;
 * no browser is trusted to skip the second step; enrolment answers with its QR code, drawn here;
 * the session says when a staff account must enrol.
 */
export function secondFactorHooks(deps: SecondFactorHookDeps) {
  const { config, db, verifyCode, mustEnrol } = deps;
  const siteName = async () => (await deps.siteSettings.get()).siteName;
  // The requests that turn two-factor on (confirming the first code), told from before to after.
  const enabling = new WeakSet<Request>();
  const codeHash = (userId: string, code: string) => createHmac('sha256', config.authSecret).update(`${userId}:${code}`).digest('base64url');

  /** What Better Auth's before hook answers: nothing, or the request's body as Better Auth is to see it. */
  const before = async (ctx: HookContext): Promise<{ context: { body: Record<string, unknown> } } | undefined> => {
    if (ctx.path === '/two-factor/verify-totp' && ctx.request) {
      const current = await getSessionFromCtx(ctx);
      if (current && !(current.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled) enabling.add(ctx.request);
    }
    if (ctx.path === '/two-factor/disable') {
      // The password first: a refused request spends no backup code. The code is the fresh proof.
      const current = await getSessionFromCtx(ctx);
      const body = ctx.body as { code?: unknown; password?: unknown } | undefined;
      if (current) await checkPasswordOf(db, current.user.id, body?.password, true);
      if (typeof body?.code !== 'string' || !body.code.trim()) throw APIError.from('BAD_REQUEST', { code: 'CODE_REQUIRED', message: secondFactorTexts.codeRequired });
      await verifyCode(body.code.trim(), ctx.headers ?? new Headers());
    }
    await requireFreshProof(db, ctx);
    // No trusted browsers (issue 56): every sign-in asks for the second factor, so none is remembered.
    if (SECOND_STEP_PATHS.includes(ctx.path) && ctx.body) return { context: { body: { ...(ctx.body as Record<string, unknown>), trustDevice: false } } };
    return undefined;
  };

  /** The session a sign-in just made becomes the pending second step, as `twoFactor` does for a password. */
  const challenge = async (ctx: HookContext) => {
    const created = ctx.context.newSession;
    if (!created || !(created.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled) return;
    deleteSessionCookie(ctx, true);
    await ctx.context.internalAdapter.deleteSession(created.session.token);
    ctx.context.setNewSession(null);
    const step = PENDING_SECOND_STEP;
    const cookie = ctx.context.createAuthCookie(step.cookie, { maxAge: step.seconds });
    const identifier = `${step.identifierPrefix}${generateRandomString(step.identifierLength)}`;
    const expiresAt = new Date(Date.now() + step.seconds * 1000);
    await ctx.context.internalAdapter.createVerificationValue({ value: created.user.id, identifier, expiresAt });
    await ctx.context.internalAdapter.createVerificationValue({ value: step.firstAttempts, identifier: `${step.attemptsPrefix}${identifier}`, expiresAt });
    await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes);
    const returned = answered(ctx);
    // A link or a provider answered with a redirect: it goes to the page's second step instead.
    if (isAPIError(returned) && returned.statusCode === 302) throw ctx.redirect(`${config.publicUrl}/auth?view=two_factor`);
    return ctx.json({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
  };

  /** A code accepted once is refused for the 90 seconds it could still be accepted. */
  const refuseReplayedCode = async (ctx: HookContext) => {
    const returned = answered(ctx) as { user?: { id?: string } } | undefined;
    const userId = returned?.user?.id;
    const code = (ctx.body as { code?: unknown } | undefined)?.code;
    if (!userId || typeof code !== 'string') return;
    const first = await db
      .insertInto('used_totp_codes')
      .values({ user_id: userId, code_hash: codeHash(userId, code.trim()) })
      .onConflict((conflict) =>
        conflict
          .columns(['user_id', 'code_hash'])
          .doUpdateSet({ used_at: sql`now()` })
          .where('used_totp_codes.used_at', '<', sql<Date>`now() - ${`${TOTP_ACCEPTED_MS} milliseconds`}::interval`),
      )
      .returning('user_id')
      .executeTakeFirst();
    await db.deleteFrom('used_totp_codes').where('user_id', '=', userId).where('used_at', '<', sql<Date>`now() - ${`${TOTP_ACCEPTED_MS} milliseconds`}::interval`).execute();
    if (first) return;
    // Seen already: the session this answer made (a sign-in's) is taken back.
    const made = ctx.context.newSession;
    if (made) {
      deleteSessionCookie(ctx, true);
      await ctx.context.internalAdapter.deleteSession(made.session.token);
      ctx.context.setNewSession(null);
    }
    throw APIError.from('UNAUTHORIZED', { code: 'CODE_ALREADY_USED', message: secondFactorTexts.codeUsed });
  };

  /** Two-factor just turned on: every other session of the account ends (whoever had one is out). */
  const endOtherSessions = async (ctx: HookContext) => {
    const made = ctx.context.newSession;
    if (!made) return;
    await db.deleteFrom('session').where('userId', '=', made.user.id).where('token', '!=', made.session.token).execute();
  };

  /** The account's owner hears of the change by mail; a failure to queue it is logged, the change stands. */
  const tell = async (ctx: HookContext, change: AccountChange, userId?: string) => {
    const whose = userId ?? ctx.context.newSession?.user.id ?? ctx.context.session?.user.id ?? (await getSessionFromCtx(ctx))?.user.id;
    if (!whose) return;
    await mailAccountChange(deps, whose, change).catch((err: unknown) => deps.log.error({ err, change: change.kind }, 'could not mail the account change'));
  };

  const after = async (ctx: HookContext) => {
    // A password sign-in too: the plugin would let a `trust_device` cookie skip the second step.
    if (isOtherSignIn(ctx.path) || ctx.path === '/sign-in/email') return challenge(ctx);
    const failed = isAPIError(answered(ctx));
    if (ctx.path === '/two-factor/verify-totp') {
      const turnedOn = ctx.request !== undefined && enabling.has(ctx.request);
      if (ctx.request) enabling.delete(ctx.request);
      if (failed) return;
      await refuseReplayedCode(ctx);
      if (turnedOn) {
        await endOtherSessions(ctx);
        await tell(ctx, { kind: 'two-factor-on' });
      }
      return;
    }
    if (failed) return;
    if (ctx.path === '/two-factor/disable') return tell(ctx, { kind: 'two-factor-off' });
    if (ctx.path === '/two-factor/generate-backup-codes') return tell(ctx, { kind: 'backup-codes' });
    if (ctx.path === '/passkey/verify-registration') {
      const added = answered(ctx) as { userId?: string; name?: string | null };
      return tell(ctx, { kind: 'passkey-added', name: added.name ?? null }, added.userId);
    }
    if (ctx.path === '/get-session') {
      // The page learns from the session that its account must enrol before anything else.
      const returned = answered(ctx) as { user?: { id: string; email: string; role: Role } } | null;
      if (returned?.user && (await mustEnrol(returned.user))) return ctx.json({ ...returned, secondFactorRequired: true });
      return;
    }
    if (ctx.path === '/two-factor/enable' || ctx.path === '/two-factor/get-totp-uri') {
      const returned = answered(ctx) as { totpURI?: string };
      if (!returned.totpURI) return;
      const totpURI = withIssuer(returned.totpURI, await siteName());
      if (ctx.path === '/two-factor/get-totp-uri') return ctx.json({ ...returned, totpURI });
      // The QR code is drawn here, as SVG: the secret never goes to anyone else's service.
      return ctx.json({ ...returned, totpURI, totpQrSvg: renderSVG(totpURI) });
    }
    if (ctx.path === '/passkey/generate-register-options') {
      // The name the browser shows for the site; only `rp.id` is checked when the passkey is registered.
      const returned = answered(ctx) as { rp?: { name?: string; id?: string } };
      if (returned.rp) return ctx.json({ ...returned, rp: { ...returned.rp, name: await siteName() } });
    }
  };

  return { before, after };
}

/** Whether an account has a second factor: a confirmed authenticator app or a passkey. */
export async function hasSecondFactor(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('user')
    .select((eb) => [
      'user.twoFactorEnabled',
      eb.exists(eb.selectFrom('passkey').select('passkey.id').whereRef('passkey.userId', '=', 'user.id')).as('hasPasskey'),
    ])
    .where('user.id', '=', userId)
    .executeTakeFirst();
  return Boolean(row?.twoFactorEnabled || row?.hasPasskey);
}
