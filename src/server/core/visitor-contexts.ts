import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync, FastifyPluginOptions, FastifyRequest, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { applyCacheDeclarations, privateAnswer } from '../cache/route-caching.js';
import type { Config } from '../config.js';
import { notFound } from '../errors.js';
import { may } from './access.js';
import type { Permission } from './roles.js';
import type { RateLimiter, RateLimitRule } from '../rate-limit/rate-limit.js';
import type { SessionUser } from './session-user.js';

/** The session a signed-in request came with (Settings lists and ends sessions; some writes need a fresh one). */
export interface SignedInSession {
  id: string;
  createdAt: Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The account the context's guard let through: set on every route of a signed-in or
     * permission context before its body is judged. A public route has none (it asks
     * `sessions.optionalUser` when the answer depends on the reader).
     */
    user: SessionUser;
    /** The session of `user`, on signed-in contexts' routes. */
    userSession: SignedInSession;
  }
  interface FastifyContextConfig {
    /** A limit per signed-in account (`limitedPerUser`), counted by the context after validation, before the handler. */
    perUserLimit?: PerUserLimit;
  }
}

export interface PerUserLimit {
  /** Counted under `${key}:${user id}`. */
  key: string;
  rule: RateLimitRule;
  /** The 429's message (the limiter's default without). */
  message?: string;
}

/** A route's write limit per account: `config: { ...limitedPerUser('comment-create', RULE, MESSAGE) }`. */
export const limitedPerUser = (key: string, rule: RateLimitRule, message?: string): { perUserLimit: PerUserLimit } => ({ perUserLimit: { key, rule, message } });

/**
 * Who may call a context's routes: anyone; any signed-in account (401 for the rest); the accounts
 * with one permission of `core/roles.ts` (everyone else, signed out too, gets the 404 of a page
 * that does not exist); or signed-in accounts with a permission (`signedInWith`: 401 signed out,
 * as the routes of a signed-in context; 404 without the permission).
 */
export type Visitors = 'anyone' | 'signed-in' | Permission | { signedInWith: Permission };

export interface VisitorContext {
  visitors: Visitors;
  /**
   * Whether staff without a second factor are turned away (403) when the site requires one: true
   * for the API, false for what enrolling needs (Better Auth's endpoints, reading the account) and
   * for what machines fetch outside the API (feeds, the fediverse, the manifest, mail links).
   */
  staffSecondFactor: boolean;
}

export interface VisitorContextDeps {
  config: Config;
  sessions: {
    optionalUser(request: FastifyRequest): Promise<SessionUser | null>;
    requireSession(request: FastifyRequest): Promise<{ user: SessionUser; session: SignedInSession }>;
  };
  limiter: Pick<RateLimiter, 'enforce'>;
  /** The staff second-factor rule (`auth/staff-second-factor.ts`): throws its 403, or lets the request on. */
  staffSecondFactor: (request: FastifyRequest) => Promise<void>;
}

/** The app's Fastify instance as its features' route plugins see it (zod schemas). */
export type RoutesContext = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;
/** What a context registers: a feature's route plugin with its options (`routes`), or a route of its own. */
export type FeatureRoutes = (context: RoutesContext) => unknown;

/** A feature's route plugin and its options, for a context's list in `app.ts`. */
export function routes<O extends FastifyPluginOptions>(plugin: FastifyPluginAsync<O, RawServerDefault, ZodTypeProvider> | FastifyPluginAsync<O>, opts: O): FeatureRoutes {
  return (context) => context.register(plugin as FastifyPluginAsync<O, RawServerDefault, ZodTypeProvider>, opts);
}

/**
 * The one guard factory: a plugin that declares, once for every route registered inside it, who
 * may call (before the body is judged, so a 401 or 404 comes before a 400), the staff
 * second-factor rule, the per-account write limit its routes name, and its caching default (the
 * answers of a signed-in context's GETs are their reader's own: `privateAnswer` unless declared).
 * `app.ts` lists which features' routes go in which context.
 */
export function visitorContext(deps: VisitorContextDeps, context: VisitorContext, routes: readonly FeatureRoutes[]) {
  const { visitors } = context;
  return async (app: RoutesContext) => {
    applyCacheDeclarations(app, visitors === 'anyone' ? undefined : privateAnswer);
    app.decorateRequest('user', null as unknown as SessionUser);
    app.decorateRequest('userSession', null as unknown as SignedInSession);
    if (context.staffSecondFactor) app.addHook('onRequest', deps.staffSecondFactor);

    if (visitors === 'anyone') {
      app.addHook('onRoute', (route) => {
        if (route.config?.perUserLimit) throw new Error(`${String(route.method)} ${route.url} limits per user but anyone may call it: register it in a signed-in context`);
      });
    } else if (visitors === 'signed-in' || 'signedInWith' in visitors) {
      // After the body is parsed, as before: a malformed body is still the 400 it always was.
      app.addHook('preValidation', async (request) => {
        const { user, session } = await deps.sessions.requireSession(request);
        if (visitors !== 'signed-in' && !may(deps.config, user, visitors.signedInWith)) throw notFound();
        request.user = user;
        request.userSession = session;
      });
    } else {
      app.addHook('onRequest', async (request) => {
        const user = await deps.sessions.optionalUser(request);
        if (!may(deps.config, user, visitors)) throw notFound();
        request.user = user;
      });
    }
    if (visitors !== 'anyone') {
      app.addHook('preHandler', async (request) => {
        const limit = request.routeOptions.config?.perUserLimit;
        if (limit) await deps.limiter.enforce(`${limit.key}:${request.user.id}`, limit.rule, limit.message);
      });
    }
    for (const register of routes) await register(app);
  };
}
