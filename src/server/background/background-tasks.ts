import type { FastifyBaseLogger } from 'fastify';

/**
 * Work a request starts but does not wait for (e-mails after a comment): it must neither slow
 * the answer nor fail it, so its errors are logged, not thrown. `settled` waits for what is under
 * way: the app's close does, so a graceful stop sends what it promised; tests do, to see it.
 */
export interface BackgroundTasks {
  run(name: string, task: () => Promise<unknown>): void;
  settled(): Promise<void>;
}

export function createBackgroundTasks(log: FastifyBaseLogger): BackgroundTasks {
  const pending = new Set<Promise<void>>();
  return {
    run(name, task) {
      const running: Promise<void> = Promise.resolve()
        .then(task)
        .then(
          () => undefined,
          (err: unknown) => log.error({ err, task: name }, 'background task failed'),
        )
        .finally(() => pending.delete(running));
      pending.add(running);
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
