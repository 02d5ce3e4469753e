import v8 from 'node:v8';
import type { FastifyInstance } from 'fastify';

/**
 * Gives memory back once the server has gone quiet after work. V8 keeps the heap a burst of
 * requests grew it to until it next needs to collect, and a server with nothing to do allocates
 * nothing, so it may hold that heap for minutes (measured on a 512 MB machine after the signed-in
 * load of issue 31: 99 MB of heap, 81 MB of it "used", still held 20 s later). Once no request
 * has started for `idleMs` after some did, one full collection that also releases V8's free pages
 * (`flavor: 'last-resort'`, the collection V8 makes before it would run out of memory) brings the
 * process back near where it started. It runs only when idle, so no reader waits on it.
 *
 * Only when V8's heap has grown by `grownBytes` since the last such collection (or the start): a
 * site with a request every few seconds does not pay for a full collection after each.
 *
 * It needs `gc`, which Node exposes only with `--expose-gc`: the memory budget asks for that flag
 * below 2 GB (`memory-budget.ts`), where this matters; without it this does nothing.
 *
 * Not a job of the job runner (docs/jobs.md): it is this process's own memory, so no lock across
 * processes applies, and it looks every few seconds, which the runner would log each time. It is
 * started and stopped with the app and counted in `/metrics` like the jobs.
 */

/** The shape of Node's `gc` with `--expose-gc` (V8's gc extension). */
export type GcFunction = (options?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async'; flavor?: 'regular' | 'last-resort' }) => void | Promise<void>;

export interface IdleReclaim {
  /** Counts one request (an `onRequest` hook): cheap, a counter. */
  touch(): void;
  /** Collections run so far. */
  readonly collections: number;
  stop(): void;
}

export interface IdleReclaimOptions {
  /** Quiet this long after activity, then collect. */
  idleMs?: number;
  gc?: GcFunction;
  /** Collect only when V8's heap has grown by this much since the last collection (8 MB). */
  grownBytes?: number;
  /** V8's heap now (its resident size); the tests pass their own. */
  heapBytes?: () => number;
  /** Told after each collection: how long it took. */
  onCollected?: (durationMs: number) => void;
}

export function reclaimWhenIdle(options: IdleReclaimOptions = {}): IdleReclaim {
  const gc = options.gc ?? (globalThis as { gc?: GcFunction }).gc;
  const idleMs = options.idleMs ?? 5_000;
  let requests = 0;
  let seen = 0;
  let quietTicks = 0;
  let pending = false;
  let collections = 0;
  const heapBytes = options.heapBytes ?? (() => v8.getHeapStatistics().total_physical_size);
  const grownBytes = options.grownBytes ?? 8 * 1024 * 1024;
  let baseline = heapBytes();
  // Ticks of half the idle time: a collection follows between one and one and a half idle times
  // after the last request.
  const timer = gc
    ? setInterval(() => {
        if (requests !== seen) {
          seen = requests;
          pending = true;
          quietTicks = 0;
          return;
        }
        if (!pending || ++quietTicks < 2) return;
        pending = false;
        if (heapBytes() < baseline + grownBytes) return;
        const started = performance.now();
        void gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
        collections++;
        baseline = heapBytes();
        options.onCollected?.(performance.now() - started);
      }, Math.max(1, Math.floor(idleMs / 2)))
    : undefined;
  // It never keeps the process alive by itself.
  timer?.unref();
  return {
    touch: () => {
      requests++;
    },
    get collections() {
      return collections;
    },
    stop: () => clearInterval(timer),
  };
}

/**
 * The app's idle collection: counts every request from the first hook on (before the response
 * cache, whose hits skip the hooks after it) and stops with the app.
 */
export function registerIdleReclaim(app: FastifyInstance, options: Omit<IdleReclaimOptions, 'onCollected'> = {}): IdleReclaim {
  const reclaim = reclaimWhenIdle({
    ...options,
    onCollected: (durationMs) => app.log.debug({ durationMs: Math.round(durationMs) }, 'idle: memory reclaimed'),
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    reclaim.touch();
    done();
  });
  app.addHook('onClose', async () => reclaim.stop());
  return reclaim;
}
