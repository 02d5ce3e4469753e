import { AppError } from '../errors.js';
import { configureImageMemory } from '../memory/image-memory.js';
import { processUploadedImage } from './image-processing.js';
import { renderImageVariants } from './image-variants.js';
import { IMAGE_WORKER_SETTINGS, type ImageReply, type ImageRequest, type ImageWorkerSettings } from './image-worker-protocol.js';

/**
 * The child process that decodes and encodes images for the server (`image-worker-client.ts`
 * starts it on the first image and stops it when images stop coming). It runs the same two
 * functions the server would run itself, and answers each request with its result or its error.
 */
// The server hands its share of the budget over (`image-worker-client.ts`); it limits how many images come at once.
const settings = JSON.parse(process.env[IMAGE_WORKER_SETTINGS]!) as ImageWorkerSettings;
configureImageMemory({ ...settings, jobs: Number.POSITIVE_INFINITY, inChildProcess: false });

process.on('message', (request: ImageRequest) => {
  void answer(request).then((reply) => process.send?.(reply));
});
// A Ctrl-C or a service manager's stop reaches the whole process group: the server finishes the
// uploads in flight before it closes the channel, so the child finishes them too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);
// The server closed the channel (idle, shutting down, or gone): nothing more will come.
process.on('disconnect', () => process.exit(0));

async function answer(request: ImageRequest): Promise<ImageReply> {
  try {
    const result = request.operation === 'process' ? await processUploadedImage(request.input) : await renderImageVariants(request.input, request.format);
    return { id: request.id, ok: true, result };
  } catch (error) {
    if (error instanceof AppError) return { id: request.id, ok: false, error: { message: error.message, statusCode: error.statusCode, code: error.code } };
    return { id: request.id, ok: false, error: { message: error instanceof Error ? error.message : String(error) } };
  }
}
