import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './app-deps.js';
import type { BlogEvents } from './core/blog-events.js';
import type { BlogWriting } from './core/blog-writing.js';
import type { SuspendAccount } from './core/suspend-account.js';
import type { FeatureRoutes, VisitorContext } from './core/visitor-contexts.js';
import type { JobRunner } from './jobs/job-runner.js';
import type { RatedSend } from './mail/mail-queue.js';
import type { Mailer } from './mail/mailer.js';

/**
 * The contexts a route can be registered in, one per kind of visitor (`core/visitor-contexts.ts`),
 * in the order `buildApp` registers them. What each declares is in docs/server-layout.md ("Who
 * may call what").
 */
export const VISITOR_CONTEXTS = {
  /** Anyone, outside the API and enrolment: Better Auth, the site's files, mail links, feeds, the fediverse. */
  'anyone, outside the API': { visitors: 'anyone', staffSecondFactor: false },
  anyone: { visitors: 'anyone', staffSecondFactor: true },
  /** Signed in, enrolling a second factor: what a staff account without one still needs. */
  'signed-in, enrolling': { visitors: 'signed-in', staffSecondFactor: false },
  'signed-in': { visitors: 'signed-in', staffSecondFactor: true },
  /** Signed in, with a role that writes blogs (readers do not): the editor's preview, its inline images, submitting and taking a cover off. */
  'blog writing': { visitors: { signedInWith: { blog: 'draft' } }, staffSecondFactor: true },
  moderation: { visitors: { moderation: 'moderate' }, staffSecondFactor: true },
  /** Those who may edit anyone's blog: the review queue (issue 59). */
  'blog editing': { visitors: { blog: 'editAny' }, staffSecondFactor: true },
  'site management': { visitors: { site: 'manage' }, staffSecondFactor: true },
  people: { visitors: { people: 'manage' }, staffSecondFactor: true },
  ownership: { visitors: { ownership: 'transfer' }, staffSecondFactor: true },
} as const satisfies Record<string, VisitorContext>;

export type ContextName = keyof typeof VISITOR_CONTEXTS;

/** One route plugin of a feature and the context it goes in. */
export interface FeatureRoute {
  visitors: ContextName;
  plugin: FeatureRoutes;
}

/** What a feature's hooks of the first group see: the app before anything else is made. */
export interface FirstHost {
  app: FastifyInstance;
  deps: Pick<AppDeps, 'config' | 'db'>;
  /** The clock a test set (`BuildAppOptions.now`), or undefined: the real one. */
  testNow: (() => Date) | undefined;
}

/** What a feature's hooks before the response cache see: the parts made so far. */
export interface BeforeCacheHost {
  app: FastifyInstance;
  deps: Pick<AppDeps, 'config' | 'db' | 'storage' | 'queue' | 'contentChanges' | 'siteSettings'>;
  blogEvents: BlogEvents;
}

/** What a feature's routes, event consumers and jobs see: the whole app. */
export interface FeatureHost<Deps extends AppDeps = AppDeps> {
  app: FastifyInstance;
  deps: Deps;
  /** The recurring and start-up jobs' runner (docs/jobs.md). */
  jobs: JobRunner;
  /** A blog's lifecycle: consumers subscribe to its events (`core/blog-events.ts`). */
  blogEvents: BlogEvents;
  /** Mail outside the queued mailer: the rate and the transport the queue's mail job sends with. */
  mail: { send: RatedSend; transport: Mailer };
  /** The clock that says which queued jobs are due (tests move it). */
  now: () => Date;
  /** Suspending from /admin: moderation's own action, composed by `app.ts` for the people feature. */
  suspendAccount: SuspendAccount;
  /** Writing blogs for apps acting with an administrator's rights (Ghost's Admin API): the blogs feature's services, composed by `app.ts`. */
  blogWriting: BlogWriting;
}

/**
 * A feature as `app.ts` composes it: its routes, each in its context; its blog-event consumers; its
 * jobs. `buildApp` calls each part of every feature in the order of its one list (`FEATURES`), part
 * by part: `hooks.first`, `hooks.beforeResponseCache`, then the routes context by context, then
 * the consumers, then the jobs. Hooks are the only parts whose place among the app's own hooks
 * matters, so they name their group.
 */
export interface Feature<Deps extends AppDeps = AppDeps> {
  name: string;
  hooks?: {
    /** Right after the request id and the bad-character guard, before any other hook (counting views). */
    first?(host: FirstHost): void;
    /** Before the response cache's hook, which answers hits without running the hooks after it. */
    beforeResponseCache?(host: BeforeCacheHost): void;
  };
  routes?(host: FeatureHost<Deps>): readonly FeatureRoute[];
  consumers?(host: FeatureHost<Deps>): void;
  jobs?(host: FeatureHost<Deps>): void;
}

/** A feature's one object (`<feature>/<feature>.feature.ts`). */
export function defineFeature<Deps extends AppDeps = AppDeps>(feature: Feature<Deps>): Feature<Deps> {
  return feature;
}
