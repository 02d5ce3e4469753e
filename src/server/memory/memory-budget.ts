import { readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * How much memory this process may use, and how that is shared among the parts that grow by
 * themselves (caches, sharp, PGlite's buffers). Measured figures behind the numbers are in
 * `docs/memory.md`.
 */

const MB = 1024 * 1024;

export type MemorySource = 'MEMORY_LIMIT_MB' | 'cgroup v2' | 'cgroup v1' | 'machine';

export interface MemoryLimit {
  bytes: number;
  source: MemorySource;
}

/** Files to read, replaceable in tests. */
export interface MemoryProbe {
  readFile(file: string): string | undefined;
  totalmem(): number;
}

const realProbe: MemoryProbe = {
  readFile(file) {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  },
  totalmem: () => os.totalmem(),
};

// cgroup v1 says "no limit" with a number near 2^63 rounded to the page size.
const NO_LIMIT_ABOVE = 2 ** 60;

/**
 * The memory this process is given: the limit of its own memory cgroup (v2 `memory.max`, v1
 * `memory.limit_in_bytes`, walking up the hierarchy as the kernel enforces every ancestor's),
 * else the machine's; never more than the machine has.
 */
export function detectMemoryLimit(probe: MemoryProbe = realProbe): MemoryLimit {
  const machine = probe.totalmem();
  const cgroup = cgroupLimit(probe);
  if (cgroup && cgroup.bytes < machine) return cgroup;
  return { bytes: machine, source: 'machine' };
}

function cgroupLimit(probe: MemoryProbe): MemoryLimit | undefined {
  const lines = (probe.readFile('/proc/self/cgroup') ?? '').split('\n').filter(Boolean);
  let smallest: MemoryLimit | undefined;
  const consider = (bytes: number | undefined, source: MemorySource) => {
    if (bytes !== undefined && bytes > 0 && bytes < NO_LIMIT_ABOVE && (!smallest || bytes < smallest.bytes)) smallest = { bytes, source };
  };
  for (const line of lines) {
    const [, controllers = '', cgroupPath = '/'] = line.split(':');
    if (controllers === '') {
      // cgroup v2: "0::/path"
      for (const dir of ancestors(cgroupPath)) consider(parseLimit(probe.readFile(`/sys/fs/cgroup${dir}/memory.max`)), 'cgroup v2');
    } else if (controllers.split(',').includes('memory')) {
      for (const dir of ancestors(cgroupPath)) {
        consider(parseLimit(probe.readFile(`/sys/fs/cgroup/memory${dir}/memory.limit_in_bytes`)), 'cgroup v1');
      }
    }
  }
  return smallest;
}

/** `/a/b` → `/a/b`, `/a`, `` (the mount's root). Inside a container the path is often just `/`. */
function ancestors(cgroupPath: string): string[] {
  const parts = cgroupPath.split('/').filter(Boolean);
  const dirs: string[] = [];
  for (let i = parts.length; i >= 0; i--) dirs.push(i === 0 ? '' : `/${parts.slice(0, i).join('/')}`);
  return dirs;
}

function parseLimit(text: string | undefined): number | undefined {
  const value = text?.trim();
  if (!value || value === 'max') return undefined;
  const bytes = Number(value);
  return Number.isFinite(bytes) ? bytes : undefined;
}

/** What the budget gives each part that grows by itself. */
export interface MemorySplit {
  budgetBytes: number;
  source: MemorySource;
  /** The in-process cache of anonymous answers (`ResponseCache`). */
  responseCacheBytes: number;
  /** The public part of list pages, kept for every reader (`public-data.ts`). */
  publicDataBytes: number;
  /** libvips' operation cache (sharp's default is 50 MB). */
  sharpCacheBytes: number;
  /** Threads libvips uses for one image (sharp's default: one per core). */
  sharpConcurrency: number;
  /** Images processed at once; more uploads wait their turn. */
  imageJobs: number;
  /** PGlite's `shared_buffers` (Postgres' default is 128 MB); undefined on a Postgres server. */
  pgliteSharedBuffersBytes?: number;
  /**
   * V8 flags the process restarts itself with (`main.ts`), see `nodeFlags`. With PGlite below 2 GB: `--liftoff-only`,
   * WebAssembly compiled by V8's baseline compiler alone. Its optimising compiler (TurboFan) would
   * recompile PGlite's hot functions as they warm up, taking several hundred MB for a while
   * (measured: a first start peaked at 1 GB with it, under 300 MB without); queries run slower.
   * Below 2 GB also `--expose-gc`, for one collection when the server goes idle after work
   * (`idle-reclaim.ts`); below 256 MB `--no-maglev`.
   */
  nodeFlags: string[];
  /**
   * Environment the process restarts itself with, for what is read only at a process's start:
   * below 2 GB, `SMALL_MACHINE_MALLOC` (glibc's allocator otherwise keeps up to eight arenas per
   * core that sharp's threads fragment; measured: 8 uploads took a 512 MB site's peak from 365 to
   * 263 MB, as sharp's documentation warns). Where the operator set one, theirs (`config.ts`).
   */
  processEnv: Record<string, string>;
  /** The part of `processEnv` not yet in this process's environment: `main.ts` restarts with it. */
  restartEnv: Record<string, string>;
}

/**
 * glibc's allocator on a small machine: two arenas instead of up to eight per core, and blocks
 * from 128 kB (libvips' pixel buffers) mapped and unmapped on their own rather than kept in the
 * heap, which glibc would otherwise raise that threshold above and hold on to (measured, one run
 * each: 20 uploads on Postgres in 256 MB peaked at 187 MB and idled at 195 MB without the last
 * two settings, at 168 MB and 170 MB with them).
 */
const SMALL_MACHINE_MALLOC: Record<string, string> = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };

/** Below this budget PGlite's WebAssembly is not recompiled by TurboFan (`nodeFlags`), and malloc keeps two arenas. */
export const SMALL_MACHINE_BELOW_BYTES = 2048 * MB;

/**
 * The smallest budget the server starts with. Measured (docs/memory.md): the app alone on a
 * Postgres server starts at about 135 MB and was served in a 192 MB cgroup (its charge peaked at
 * 148 MB); with PGlite, whose WebAssembly heap adds at least 128 MB that it never gives back, it
 * was served in 256 MB.
 */
export const MINIMUM_BYTES = { postgres: 160 * MB, pglite: 256 * MB } as const;

/** The part of the budget that grows with the machine: what is left after what every process needs. */
const BASE_BYTES = { postgres: 128 * MB, pglite: 240 * MB } as const;

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
const roundMb = (bytes: number) => Math.floor(bytes / MB) * MB;

export interface SplitOptions {
  database: 'pglite' | 'postgres';
  /** `RESPONSE_CACHE_MB` when set: the operator's figure wins over the share. */
  responseCacheBytes?: number;
  cores?: number;
}

export function splitMemory(limit: MemoryLimit, options: SplitOptions): MemorySplit {
  const { database } = options;
  const cores = options.cores ?? os.availableParallelism();
  const spare = Math.max(0, limit.bytes - BASE_BYTES[database]);
  return {
    budgetBytes: limit.bytes,
    source: limit.source,
    responseCacheBytes: options.responseCacheBytes ?? roundMb(clamp(spare * 0.15, 4 * MB, 64 * MB)),
    publicDataBytes: roundMb(clamp(spare * 0.05, 2 * MB, 20 * MB)),
    sharpCacheBytes: roundMb(clamp(spare * 0.05, 0, 50 * MB)),
    // One libvips thread per image below 1 GB: each thread holds its own buffers.
    sharpConcurrency: limit.bytes < 1024 * MB ? 1 : cores,
    imageJobs: clamp(Math.floor(limit.bytes / (256 * MB)), 1, Math.max(1, cores)),
    pgliteSharedBuffersBytes: database === 'pglite' ? roundMb(clamp(limit.bytes / 32, 8 * MB, 128 * MB)) : undefined,
    nodeFlags: nodeFlags(limit, database),
    processEnv: limit.bytes < SMALL_MACHINE_BELOW_BYTES ? SMALL_MACHINE_MALLOC : {},
    restartEnv: {},
  };
}

function nodeFlags(limit: MemoryLimit, database: 'pglite' | 'postgres'): string[] {
  const flags: string[] = [];
  if (database === 'pglite' && limit.bytes < SMALL_MACHINE_BELOW_BYTES) flags.push('--liftoff-only');
  // In a cgroup Node sizes V8's heap from its limit; told the budget by MEMORY_LIMIT_MB alone, it
  // would size it from the machine. The same rule as V8's: half the memory, at least 256 MB.
  if (limit.source === 'MEMORY_LIMIT_MB') flags.push(`--max-old-space-size=${Math.max(256, Math.floor(limit.bytes / MB / 2))}`);
  // A smaller young generation: fewer MB touched between collections (measured: a first start
  // on a 512 MB budget peaked 50 MB lower), at the price of more frequent, shorter scavenges;
  // below 256 MB the smallest V8 allows.
  if (limit.bytes < 1024 * MB) flags.push(`--max-semi-space-size=${limit.bytes < 256 * MB ? 1 : 4}`);
  // Below 256 MB (the app alone, on a Postgres server) no Maglev, V8's middle compiler: hot code
  // still goes from the baseline compiler to TurboFan, but the code Maglev compiles for everything
  // warm stays in the process (measured at 192 MB: idle after the load 134–139 MB without it,
  // 154–159 MB with it; docs/memory.md).
  if (limit.bytes < 256 * MB) flags.push('--no-maglev');
  // `gc` for the collection once the server is idle after work (`idle-reclaim.ts`).
  if (limit.bytes < SMALL_MACHINE_BELOW_BYTES) flags.push('--expose-gc');
  return flags;
}

/** One line for the start-up log: the budget, where it came from, and what each part got. */
export function describeSplit(split: MemorySplit): string {
  const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;
  const parts = [
    `response cache ${mb(split.responseCacheBytes)}`,
    `public data ${mb(split.publicDataBytes)}`,
    `sharp cache ${mb(split.sharpCacheBytes)}, ${split.sharpConcurrency} thread${split.sharpConcurrency === 1 ? '' : 's'}, ${split.imageJobs} image${split.imageJobs === 1 ? '' : 's'} at once`,
    ...(split.pgliteSharedBuffersBytes ? [`PGlite shared_buffers ${mb(split.pgliteSharedBuffersBytes)}`] : []),
    ...(split.nodeFlags.length > 0 ? [`node ${split.nodeFlags.join(' ')}`] : []),
    ...Object.entries(split.processEnv).map(([name, value]) => `${name}=${value}`),
  ];
  return `memory: ${mb(split.budgetBytes)} (${split.source}): ${parts.join(', ')}`;
}
