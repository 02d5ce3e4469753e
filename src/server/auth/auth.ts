import { betterAuth } from 'better-auth';
import { emailOTP, magicLink } from 'better-auth/plugins';
import type { Kysely } from 'kysely';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../shared/constants.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { Mailer } from '../mail/mailer.js';
import { hashPassword, verifyPassword } from './password-hashing.js';

/** The header our Fastify adapter sets to the client address Fastify trusts (see auth.routes.ts). */
export const CLIENT_IP_HEADER = 'x-blog-client-ip';
/** Links and codes expire within 10 minutes. */
export const TOKEN_TTL_SECONDS = 10 * 60;

export interface AuthDeps {
  config: Config;
  db: Kysely<Database>;
  mailer: Mailer;
}

export function createAuth({ config, db, mailer }: AuthDeps) {
  const secure = config.publicUrl.startsWith('https://');
  return betterAuth({
    appName: 'Blogging Site',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    database: { db, type: 'postgres' },
    trustedOrigins: [config.publicUrl],
    telemetry: { enabled: false },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: config.requireEmailVerification,
      autoSignIn: !config.requireEmailVerification,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      resetPasswordTokenExpiresIn: TOKEN_TTL_SECONDS,
      revokeSessionsOnPasswordReset: true,
      password: { hash: hashPassword, verify: verifyPassword },
      sendResetPassword: async ({ user, token }) => {
        const url = `${config.publicUrl}/auth?view=update_password&token=${encodeURIComponent(token)}`;
        await mailer.send({
          to: user.email,
          subject: 'Reset your password',
          text: `Someone asked to reset the password of your account.\n\nOpen this link to choose a new password (it works once, for 10 minutes):\n${url}\n\nIf it was not you, ignore this e-mail.\n`,
        });
      },
    },
    emailVerification: {
      sendOnSignUp: config.requireEmailVerification,
      autoSignInAfterVerification: true,
      expiresIn: TOKEN_TTL_SECONDS,
      sendVerificationEmail: async ({ user, token }) => {
        const url = `${config.publicUrl}/auth?view=confirm_email&token=${encodeURIComponent(token)}`;
        await mailer.send({
          to: user.email,
          subject: 'Confirm your e-mail address',
          text: `Welcome! Confirm your e-mail address to finish signing up.\n\nOpen this link and press the button on the page (it works once, for 10 minutes):\n${url}\n`,
        });
      },
    },
    plugins: [
      magicLink({
        expiresIn: TOKEN_TTL_SECONDS,
        storeToken: 'hashed',
        sendMagicLink: async ({ email, token }) => {
          const url = `${config.publicUrl}/auth?view=magic_link_confirm&token=${encodeURIComponent(token)}`;
          await mailer.send({
            to: email,
            subject: 'Your sign-in link',
            text: `Open this link and press the button on the page to sign in (it works once, for 10 minutes):\n${url}\n\nIf you did not ask for it, ignore this e-mail.\n`,
          });
        },
      }),
      emailOTP({
        expiresIn: TOKEN_TTL_SECONDS,
        allowedAttempts: 3,
        storeOTP: 'hashed',
        sendVerificationOTP: async ({ email, otp }) => {
          await mailer.send({
            to: email,
            subject: 'Your sign-in code',
            text: `Your one-time sign-in code is ${otp}\n\nIt works once, for 10 minutes. If you did not ask for it, ignore this e-mail.\n`,
          });
        },
      }),
    ],
    socialProviders: config.socialProviders,
    user: { deleteUser: { enabled: true } },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/*': { window: 60, max: 10 },
        '/sign-up/*': { window: 60, max: 5 },
        '/request-password-reset': { window: 60, max: 5 },
        '/reset-password': { window: 60, max: 10 },
        '/email-otp/*': { window: 60, max: 10 },
        '/sign-in/magic-link': { window: 60, max: 5 },
        '/magic-link/*': { window: 60, max: 10 },
      },
    },
    advanced: {
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER], ipv6Subnet: 64 },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
