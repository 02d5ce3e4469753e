import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { createAnalyticsBuffer, type AnalyticsBuffer } from './analytics-buffer.js';
import { registerAnalyticsCounting, siteHostOf } from './analytics-counting.js';
import { registerAnalyticsJob } from './analytics.job.js';
import { analyticsRoutes, siteAnalyticsRoutes } from './analytics.routes.js';

/**
 * Analytics (docs/analytics.md): views counted in memory by a hook that must see every request
 * first (`app.analytics`, none with ANALYTICS=false), written in batches; a blog's figures and the
 * site's; the job that folds old rows.
 */
export const analyticsFeature = defineFeature({
  name: 'analytics',
  hooks: {
    first: ({ app, deps: { config, db }, testNow }) => {
      let analytics: AnalyticsBuffer | null = null;
      if (config.analytics.enabled) {
        const siteHost = siteHostOf(config.publicUrl);
        analytics = createAnalyticsBuffer({ db, siteHost, flushMs: config.analytics.flushMs, log: app.log.child({ module: 'analytics' }) });
        // The clock read for each counted request: Date.now, not a Date, unless a test set the time.
        registerAnalyticsCounting(app, analytics, { siteHost, clock: testNow ? () => testNow().getTime() : Date.now });
      }
      app.decorate('analytics', analytics);
    },
  },
  routes: ({ deps, now }) => [
    { visitors: 'signed-in', plugin: routes(analyticsRoutes, { ...deps, now }) },
    { visitors: 'moderation', plugin: routes(siteAnalyticsRoutes, { ...deps, now }) },
  ],
  jobs: ({ app, deps, now, jobs }) => {
    const buffer = app.analytics;
    if (!buffer) return;
    registerAnalyticsJob(jobs, { db: deps.db, now }, { rawDays: deps.config.analytics.rawDays });
    // Every few seconds, and once more as the app closes (before the database does: `app.ts`'s onClose).
    app.addHook('onReady', async () => buffer.start());
  },
});
