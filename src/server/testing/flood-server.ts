import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const GIGABYTE = 1024 ** 3;
const CHUNK = Buffer.alloc(64 * 1024, 'a');

/**
 * A loopback server that answers every request with a body of `bytes` (a gigabyte by default),
 * made 64 KB at a time as the socket drains, so offering it costs this process nothing. `written`
 * is what the sockets took: what a client that stops reading still received. `neverAnswer` keeps
 * each request open without a byte of answer (a dead target). Options per path: `/declared` says
 * its length in Content-Length, `/gzip` claims a compressed body.
 */
export async function startFloodServer(options: { bytes?: number; neverAnswer?: boolean } = {}) {
  const total = options.bytes ?? GIGABYTE;
  const stats = { requests: 0, written: 0, closed: 0 };
  const held = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    stats.requests++;
    request.resume();
    response.on('close', () => stats.closed++);
    if (options.neverAnswer) {
      held.add(response);
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'application/activity+json' };
    if (request.url === '/declared') headers['content-length'] = String(total);
    if (request.url === '/gzip') headers['content-encoding'] = 'gzip';
    response.writeHead(200, headers);
    let sent = 0;
    const pump = () => {
      while (sent < total && !response.destroyed) {
        sent += CHUNK.length;
        stats.written += CHUNK.length;
        if (!response.write(CHUNK)) return void response.once('drain', pump);
      }
      if (!response.destroyed) response.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of held) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
