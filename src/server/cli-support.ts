import type { FastifyBaseLogger } from 'fastify';

/** Log lines of a CLI (warnings and errors) go to stderr as JSON; stdout is the report. */
export function stderrLogger(level: 'info' | 'warn' = 'warn'): FastifyBaseLogger {
  const levels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
  const write = (name: string) => (first: unknown, message?: string) => {
    if (levels.indexOf(name) < levels.indexOf(level)) return;
    const details = typeof first === 'object' && first !== null ? { ...first } : { msg: String(first) };
    if ('err' in details && details.err instanceof Error) details.err = details.err.message;
    console.error(JSON.stringify({ level: name, time: new Date().toISOString(), ...(message ? { msg: message } : {}), ...details }));
  };
  const logger = Object.fromEntries(levels.map((name) => [name, write(name)])) as unknown as FastifyBaseLogger;
  return Object.assign(logger, { level, silent: () => undefined, child: () => logger });
}

export class UsageError extends Error {}
