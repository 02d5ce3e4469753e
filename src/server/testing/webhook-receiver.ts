import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receipt {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook's target on loopback: keeps every request, and answers each path as `answer` says
 * (by default 200 "ok"); `hold` keeps a path's requests waiting until released.
 */
export async function startWebhookReceiver(answer: (path: string, count: number) => { status: number; body?: string } = () => ({ status: 200 })) {
  const receipts: Receipt[] = [];
  const counts = new Map<string, number>();
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const path = request.url ?? '/';
      const count = (counts.get(path) ?? 0) + 1;
      counts.set(path, count);
      receipts.push({ path, headers: request.headers, body });
      const { status, body: text } = answer(path, count);
      response.writeHead(status, { 'content-type': 'text/plain' }).end(text ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    receipts,
    /** Receipts at `path`, oldest first. */
    at: (path: string) => receipts.filter((receipt) => receipt.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Polls `condition` until true (no fixed sleeps), up to `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
