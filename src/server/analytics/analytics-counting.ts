import type { FastifyInstance } from 'fastify';
import type { AnalyticsBuffer } from './analytics-buffer.js';
import { countedRequest } from './counted-request.js';
import { dayOf } from './analytics.job.js';

/**
 * Counts views of public pages and fetches of feeds once they are answered: a 200, or a 304 to a
 * browser that already had the page. Fastify runs `onResponse` when the answer has gone, a
 * response cache hit (answered straight onto the socket) included. Nothing is held per request
 * until then: a request that is not counted costs a look at its status and path.
 */
export function registerAnalyticsCounting(app: FastifyInstance, buffer: AnalyticsBuffer, options: { siteHost: string; clock: () => number }): void {
  const today = todayOf(options.clock);
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    if (status === 200 || status === 304) {
      const counted = countedRequest(request, today, options.siteHost);
      if (counted) buffer.record(counted);
    }
    done();
  });
}

const DAY_MS = 86_400_000;

/** Today's date (UTC, `YYYY-MM-DD`), formatted once a day instead of once a request; `clock` answers ms since the epoch. */
function todayOf(clock: () => number): () => string {
  let dayStart = Number.NaN;
  let day = '';
  return () => {
    const time = clock();
    if (!(time >= dayStart && time < dayStart + DAY_MS)) {
      dayStart = time - (time % DAY_MS);
      day = dayOf(new Date(dayStart));
    }
    return day;
  };
}

/** The site's host as referrers name it (the site's own pages are no referrer). */
export function siteHostOf(publicUrl: string): string {
  return new URL(publicUrl).hostname.toLowerCase().replace(/^www\./, '');
}
