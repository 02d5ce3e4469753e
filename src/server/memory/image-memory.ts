import type SharpModule from 'sharp';

/**
 * What sharp may hold, set once per process from the memory budget (`memory/memory-budget.ts`):
 * libvips' operation cache, its threads per image, and how many images are decoded at once. An
 * upload decodes to about 6 MB of pixels per 1600 x 1000 and each variant adds its own buffers, so
 * on a small machine uploads take turns rather than all decoding together.
 */
export interface ImageMemory {
  cacheBytes: number;
  concurrency: number;
  jobs: number;
  /** Images made in a child process that exits when idle (`image-worker-client.ts`), not in this one. */
  inChildProcess: boolean;
}

let slots = Number.POSITIVE_INFINITY;
let running = 0;
const waiting: Array<() => void> = [];
let configured: ImageMemory | undefined;
let loaded: typeof SharpModule | undefined;
let loading: Promise<typeof SharpModule> | undefined;

export function configureImageMemory(settings: ImageMemory): void {
  configured = settings;
  slots = Math.max(1, settings.jobs);
  if (loaded) applySettings(loaded, settings);
}

/** The settings `configureImageMemory` was given, if it was called. */
export function configuredImageMemory(): ImageMemory | undefined {
  return configured;
}

/**
 * sharp, loaded with the first image the process handles: with libvips it costs about 27 MB of
 * resident memory, which a site that receives no upload since its start never needs.
 */
export function loadSharp(): Promise<typeof SharpModule> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    if (configured) applySettings(sharp, configured);
    loaded = sharp;
    return sharp;
  });
  return loading;
}

function applySettings(sharp: typeof SharpModule, settings: ImageMemory) {
  sharp.cache(settings.cacheBytes > 0 ? { memory: Math.max(1, Math.floor(settings.cacheBytes / (1024 * 1024))), files: 0, items: 100 } : false);
  sharp.concurrency(settings.concurrency);
}

/** Runs `work` when one of the image slots is free; the others wait in order. */
export async function withImageSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}
