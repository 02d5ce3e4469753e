import type { LogEvent } from 'kysely';
import type { QueryListener } from './database.js';

/** Kysely's log hook, fanned out to whoever listens (nobody, unless metrics are on). */
export function queryObservers() {
  const listeners = new Set<QueryListener>();
  return {
    log(event: LogEvent) {
      for (const listener of listeners) listener(event.queryDurationMillis, event.level === 'error');
    },
    observeQueries(listener: QueryListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
