import type { ImageMemory } from '../memory/image-memory.js';
import type { ProcessedImage } from './image-processing.js';
import type { ImageVariants } from './image-variants.js';

/** The image work a child process does for the server (`image-worker.ts`), one message each. */
export type ImageOperation = { operation: 'process'; input: Buffer } | { operation: 'variants'; input: Buffer; format: 'webp' | 'avif' };
export type ImageRequest = ImageOperation & { id: number };

/** The answer to one request: its result, or the error, as data (an `AppError` keeps its status). */
export type ImageReply =
  | { id: number; ok: true; result: ProcessedImage | ImageVariants }
  | { id: number; ok: false; error: { message: string; statusCode?: number; code?: string } };

/** The environment variable that hands the child its share of the memory budget. */
export const IMAGE_WORKER_SETTINGS = 'IMAGE_WORKER_SETTINGS';
export type ImageWorkerSettings = Omit<ImageMemory, 'jobs' | 'inChildProcess'>;
