import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AppError } from '../errors.js';
import { configuredImageMemory } from '../memory/image-memory.js';
import { type ProcessedImage, processUploadedImage } from './image-processing.js';
import { type ImageVariants, renderImageVariants } from './image-variants.js';
import { IMAGE_WORKER_SETTINGS, type ImageOperation, type ImageReply, type ImageRequest, type ImageWorkerSettings } from './image-worker-protocol.js';

/** What the server asks of images: an upload checked and re-encoded, and a stored image's variants. */
export interface ImageWork {
  processUploadedImage(input: Buffer): Promise<ProcessedImage>;
  renderImageVariants(stored: Buffer, format?: 'webp' | 'avif'): Promise<ImageVariants>;
}

/** Seconds without an image after which the child process exits, handing its memory back. */
const IDLE_MS = 5_000;

// Under Vitest this module runs from its TypeScript source, and so must the child.
const fromSource = import.meta.url.endsWith('.ts');
const WORKER_ENTRY = fileURLToPath(new URL(`./image-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url));

interface Waiter {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

interface RunningWorker {
  process: ChildProcess;
  pending: Map<number, Waiter>;
}

/**
 * Images decoded and encoded in a child process, started with the first image and stopped when
 * images stop coming (docs/memory.md). sharp and libvips then never load into the server: what
 * they hold (their code, the pixels' buffers, and the heap that glibc keeps after them, which
 * Node cannot hand back) goes with the child. A crash while decoding an untrusted file takes
 * the child down and fails that one upload, not the server.
 */
export class ImageWorker implements ImageWork {
  private running: RunningWorker | undefined;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly settings: ImageWorkerSettings,
    private readonly idleMs = IDLE_MS,
  ) {}

  processUploadedImage(input: Buffer): Promise<ProcessedImage> {
    return this.request({ operation: 'process', input }) as Promise<ProcessedImage>;
  }

  renderImageVariants(stored: Buffer, format: 'webp' | 'avif' = 'webp'): Promise<ImageVariants> {
    return this.request({ operation: 'variants', input: stored, format }) as Promise<ImageVariants>;
  }

  /** The child's pid while it runs (for tests and logs). */
  get pid(): number | undefined {
    return this.running?.process.pid;
  }

  /** Ends the child: it exits once its channel closes; what it was doing fails. */
  stop(): void {
    clearTimeout(this.idleTimer);
    const running = this.running;
    this.running = undefined;
    if (running?.process.connected) running.process.disconnect();
  }

  private request(body: ImageOperation): Promise<unknown> {
    clearTimeout(this.idleTimer);
    const running = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      running.pending.set(id, { resolve, reject });
      const request: ImageRequest = { id, ...body };
      running.process.send(request);
    });
  }

  private start(): RunningWorker {
    if (this.running) {
      this.keepAlive(this.running, true);
      return this.running;
    }
    const child = fork(WORKER_ENTRY, [], {
      serialization: 'advanced',
      execArgv: [...(fromSource ? ['--import', 'tsx'] : []), '--max-semi-space-size=1'],
      env: { ...process.env, [IMAGE_WORKER_SETTINGS]: JSON.stringify(this.settings) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const running: RunningWorker = { process: child, pending: new Map() };
    child.on('message', (reply: ImageReply) => this.settle(running, reply));
    const fail = (reason: string) => {
      if (this.running === running) this.running = undefined;
      for (const waiter of running.pending.values()) waiter.reject(new Error(`The image worker stopped (${reason}).`));
      running.pending.clear();
    };
    child.on('exit', (code, signal) => fail(signal ?? `exit code ${code}`));
    child.on('error', (error) => {
      fail(error.message);
      child.kill();
    });
    this.running = running;
    return running;
  }

  private settle(running: RunningWorker, reply: ImageReply): void {
    const waiter = running.pending.get(reply.id);
    if (!waiter) return;
    running.pending.delete(reply.id);
    if (reply.ok) waiter.resolve(reply.result);
    else waiter.reject(reply.error.statusCode ? new AppError(reply.error.statusCode, reply.error.code ?? 'ERROR', reply.error.message) : new Error(reply.error.message));
    if (running.pending.size === 0 && this.running === running) {
      // Idle: the child no longer keeps the server's event loop alive, and exits after a while.
      this.keepAlive(running, false);
      this.idleTimer = setTimeout(() => this.stop(), this.idleMs);
      this.idleTimer.unref();
    }
  }

  private keepAlive({ process: child }: RunningWorker, alive: boolean): void {
    if (alive) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  }
}

const inProcess: ImageWork = { processUploadedImage, renderImageVariants };
let worker: ImageWorker | undefined;

/** Where this process's images are made: in a child process when the server said so (`start-server.ts`), else here. */
export function imageWork(): ImageWork {
  const settings = configuredImageMemory();
  if (!settings?.inChildProcess) return inProcess;
  worker ??= new ImageWorker({ cacheBytes: settings.cacheBytes, concurrency: settings.concurrency });
  return worker;
}

/** Stops the image child process, if one runs (the server closing). */
export function stopImageWorker(): void {
  worker?.stop();
}
