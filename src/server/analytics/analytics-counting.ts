import type { FastifyInstance } from 'fastify';
import type { AnalyticsBuffer } from './analytics-buffer.js';
import { countedRequest } from './counted-request.js';
import { dayOf } from './analytics.job.js';

/**
 * Counts views of public pages and fetches of feeds as they are answered. Registered before the
 * response cache's hook, which answers hits straight onto the socket: the count waits for the
 * answer's end on the socket itself, so a hit counts like a rendered page, and only a 200 (or a
 * 304 to a browser that already had the page) counts.
 */
export function registerAnalyticsCounting(app: FastifyInstance, buffer: AnalyticsBuffer, options: { siteHost: string; clock: () => number }): void {
  const today = todayOf(options.clock);
  app.addHook('onRequest', (request, reply, done) => {
    const counted = countedRequest(request, today, options.siteHost);
    if (counted) {
      reply.raw.once('finish', () => {
        const status = reply.raw.statusCode;
        if (status === 200 || status === 304) buffer.record(counted);
      });
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
