import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getAuthenticatedDocumentLoader } from '@fedify/fedify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFloodServer } from '../testing/flood-server.js';
import { assertPublicUrl, DEFAULT_RESPONSE_LIMITS, hostAddress, isPublicAddress, NonPublicAddressError, outgoingRequestGuard, ResponseTooLargeError } from './public-address.js';

/**
 * Attacks on the one rule for requests made on someone else's word (issue 42). No request here
 * leaves the machine: the public addresses below are only classified, never connected to.
 */
describe('public addresses: the classification', () => {
  it.each([
    // IPv4 special-purpose ranges
    '0.0.0.0', '0.1.2.3', '10.0.0.1', '100.64.0.1', '127.0.0.1', '127.255.255.254', '169.254.169.254', '172.16.0.1', '172.31.255.255',
    '192.0.0.8', '192.0.2.1', '192.88.99.1', '192.168.1.1', '198.18.0.1', '198.51.100.7', '203.0.113.9', '224.0.0.1', '240.0.0.1', '255.255.255.255',
    // IPv6: unspecified, loopback, IPv4-compatible, mapped and NAT64 forms of private IPv4, unique local, link-local, multicast, documentation, 6to4, Teredo
    '::', '::1', '::127.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::ffff:0:7f00:1', '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe', '64:ff9b:1::1', '100::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fec0::1', 'ff02::1', '2001:db8::1', '2002:7f00:1::1',
    '2001::1', '3fff::1', '[::1]', '[::ffff:127.0.0.1]',
    // not an address at all
    'localhost', '', '127.1', '2130706433', '0177.0.0.1',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.4.4', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001::200e', '::ffff:93.184.215.14', '64:ff9b::8.8.4.4', '[2606:4700:4700::1111]'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://0.0.0.0:8080/', '0.0.0.0'],
    ['http://[::]/', '::'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', '::ffff:7f00:1'],
    ['https://example.social/users/a', null],
  ])('reads %s as the address %s', (url, address) => {
    expect(hostAddress(new URL(url))).toBe(address);
  });
});

describe('public addresses: URLs checked before a request', () => {
  it.each([
    'http://127.0.0.1/', 'http://2130706433/', 'http://0177.0.0.1/', 'http://127.1/', 'http://0x7f000001/', 'http://[::ffff:127.0.0.1]/', 'http://[::1]:3000/',
    'http://0.0.0.0/', 'http://[::]/', 'http://169.254.169.254/latest/meta-data/', 'http://10.1.2.3/inbox', 'https://[fd00::1]/inbox', 'http://[64:ff9b::7f00:1]/',
    // names: RFC 6761's localhost, and a name that resolves to loopback
    'http://localhost:3000/', 'http://LOCALHOST./', 'http://inbox.localhost/',
  ])('refuses %s', async (url) => {
    await expect(assertPublicUrl(url)).rejects.toBeInstanceOf(NonPublicAddressError);
  });

  it.each(['javascript:alert(document.domain)', 'file:///etc/passwd', 'ftp://93.184.215.14/', 'data:text/html,hi', 'gopher://93.184.215.14/'])('refuses the scheme of %s', async (url) => {
    await expect(assertPublicUrl(url)).rejects.toBeInstanceOf(NonPublicAddressError);
  });

  it('accepts a public literal without a DNS lookup', async () => {
    await expect(assertPublicUrl('https://93.184.215.14/users/someone')).resolves.toBeUndefined();
    await expect(assertPublicUrl('https://[2606:4700:4700::1111]/inbox')).resolves.toBeUndefined();
  });

  it('allows everything when private addresses are allowed (FEDERATION_ALLOW_PRIVATE_ADDRESS)', async () => {
    const open = outgoingRequestGuard({ allowPrivateAddress: true });
    await expect(open.assertAllowed('http://127.0.0.1:1/')).resolves.toBeUndefined();
  });
});

/** A loopback listener that counts what reaches it. */
async function listener(host: string, answer: (request: http.IncomingMessage, response: http.ServerResponse) => void = (_request, response) => response.end('reached')) {
  const seen: string[] = [];
  const server = http.createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return { seen, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('public addresses: requests made inside the guard', () => {
  const guard = outgoingRequestGuard({ allowPrivateAddress: false });
  let target: Awaited<ReturnType<typeof listener>>;
  beforeAll(async () => {
    target = await listener('127.0.0.1');
  });
  afterAll(() => target.close());

  it('never connects to a loopback listener, whatever the address is written as; the site’s own requests are untouched', async () => {
    const forms = [
      `http://127.0.0.1:${target.port}/a`,
      `http://localhost:${target.port}/b`,
      `http://2130706433:${target.port}/c`,
      `http://0177.0.0.1:${target.port}/d`,
      `http://127.1:${target.port}/e`,
      `http://[::ffff:127.0.0.1]:${target.port}/f`,
      `http://0.0.0.0:${target.port}/g`,
      `https://127.0.0.1:${target.port}/h`,
      `https://localhost:${target.port}/i`,
    ];
    for (const url of forms) {
      await guard.run(async () => {
        for (const method of ['GET', 'POST']) {
          const failure = await fetch(url, { method, body: method === 'POST' ? '{}' : undefined }).then(
            () => null,
            (error: Error) => error,
          );
          expect(failure, `${method} ${url}`).toBeInstanceOf(TypeError);
          expect((failure as TypeError).cause, url).toBeInstanceOf(NonPublicAddressError);
        }
      });
    }
    expect(target.seen).toEqual([]);

    // Outside the guard (the site's own requests: AI, S3, tests) nothing changed.
    const own = await fetch(`http://127.0.0.1:${target.port}/own`);
    expect(await own.text()).toBe('reached');
    expect(target.seen).toEqual(['GET /own']);
    target.seen.length = 0;
  });

  it('judges each redirect again', async () => {
    // A rule that lets 127.0.0.1 through and refuses 127.0.0.2 (both loopback here): the first hop
    // is allowed, its redirect is not.
    const refused = await listener('127.0.0.2');
    const redirector = await listener('127.0.0.1', (_request, response) => {
      response.writeHead(307, { location: `http://127.0.0.2:${refused.port}/inbox` }).end();
    });
    const onlyFirst = outgoingRequestGuard({ allowPrivateAddress: false, isAllowed: (address) => address === '127.0.0.1' });
    try {
      await onlyFirst.run(async () => {
        await expect(fetch(`http://127.0.0.1:${redirector.port}/`, { method: 'POST', body: '{}' })).rejects.toThrow(TypeError);
        const manual = await fetch(`http://127.0.0.1:${redirector.port}/`, { redirect: 'manual' });
        expect(manual.status).toBe(307);
        await expect(fetch(manual.headers.get('location')!)).rejects.toThrow(TypeError);
      });
      expect(redirector.seen).toEqual(['POST /', 'GET /']);
      expect(refused.seen).toEqual([]);
    } finally {
      await Promise.all([refused.close(), redirector.close()]);
    }
  });

  it('leaves requests alone where private addresses are allowed', async () => {
    const open = outgoingRequestGuard({ allowPrivateAddress: true });
    const response = await open.run(() => fetch(`http://127.0.0.1:${target.port}/allowed`));
    expect(await response.text()).toBe('reached');
    target.seen.length = 0;
  });
});

/**
 * Issue 56: an answer on someone else's word is read up to a fixed number of bytes, then cut. A
 * loopback server offers a gigabyte (made as the socket drains, never held); the request must
 * fail within seconds, the server's socket must be closed, and this process (client and server
 * both) must grow by far less than what was offered.
 */
describe('public addresses: bounded answers', () => {
  const MB = 1024 * 1024;
  let flood: Awaited<ReturnType<typeof startFloodServer>>;
  beforeAll(async () => {
    flood = await startFloodServer();
  });
  afterAll(() => flood.close());
  const onlyLoopback = outgoingRequestGuard({ allowPrivateAddress: false, isAllowed: (address) => address === '127.0.0.1' });
  const open = outgoingRequestGuard({ allowPrivateAddress: true });
  const failure = (work: Promise<unknown>) => work.then(() => null, (error: Error) => error);
  const causeOf = (error: Error | null) => (error?.cause ?? error) as Error;

  /** Runs `work` against the flood and checks what it cost: time, bytes sent, memory, the socket. */
  async function measured(work: () => Promise<Error | null>) {
    const before = { written: flood.stats.written, closed: flood.stats.closed, requests: flood.stats.requests, rss: process.memoryUsage.rss() };
    const started = Date.now();
    const error = await work();
    const elapsedMs = Date.now() - started;
    await expect.poll(() => flood.stats.closed - before.closed, { timeout: 5000 }).toBe(flood.stats.requests - before.requests);
    return { error, elapsedMs, written: flood.stats.written - before.written, rssGrowth: process.memoryUsage.rss() - before.rss };
  }

  it('cuts a streamed gigabyte at the limit inside the address guard: the body read fails, the socket is closed', async () => {
    const outcome = await measured(() => onlyLoopback.run(async () => failure((await fetch(`${flood.base}/stream`)).text())));
    expect(causeOf(outcome.error)).toBeInstanceOf(ResponseTooLargeError);
    expect(outcome.elapsedMs).toBeLessThan(5000);
    // What the kernel's buffers took beyond the limit, not the gigabyte.
    expect(outcome.written).toBeLessThan(DEFAULT_RESPONSE_LIMITS.maxResponseBytes + 16 * MB);
    expect(outcome.rssGrowth).toBeLessThan(100 * MB);
  });

  it('cuts a federation document the same way where private addresses are allowed (Fedify’s own loader)', async () => {
    const keys = await crypto.subtle.generateKey({ name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['sign', 'verify']);
    const load = getAuthenticatedDocumentLoader({ keyId: new URL('http://127.0.0.1/users/site#main-key'), privateKey: keys.privateKey }, { allowPrivateAddress: true });
    const outcome = await measured(() => open.run(() => failure(load(`${flood.base}/users/someone`))));
    expect(causeOf(outcome.error)).toBeInstanceOf(ResponseTooLargeError);
    expect(outcome.elapsedMs).toBeLessThan(5000);
    expect(outcome.written).toBeLessThan(DEFAULT_RESPONSE_LIMITS.maxResponseBytes + 16 * MB);
    expect(outcome.rssGrowth).toBeLessThan(100 * MB);
  });

  it('refuses by Content-Length before reading, and refuses a compressed answer (its size unpacked is unknown)', async () => {
    for (const path of ['/declared', '/gzip']) {
      const outcome = await measured(() => onlyLoopback.run(() => failure(fetch(`${flood.base}${path}`))));
      expect(causeOf(outcome.error), path).toBeInstanceOf(ResponseTooLargeError);
      expect(outcome.written, path).toBeLessThan(16 * MB);
    }
  });

  it('asks for the answer uncompressed; the site’s own requests keep their encodings', async () => {
    const encodings: string[] = [];
    const echo = await listener('127.0.0.1', (request, response) => {
      encodings.push(String(request.headers['accept-encoding']));
      response.end('ok');
    });
    try {
      await open.run(() => fetch(`http://127.0.0.1:${echo.port}/`, { headers: { 'accept-encoding': 'gzip' } }).then((response) => response.text()));
      await fetch(`http://127.0.0.1:${echo.port}/`).then((response) => response.text());
      expect(encodings).toEqual(['identity', 'gzip, deflate']);
    } finally {
      await echo.close();
    }
  });

  it('ends a request that has no complete answer within the deadline', async () => {
    const dead = await startFloodServer({ neverAnswer: true });
    const quick = outgoingRequestGuard({ allowPrivateAddress: true, limits: { deadlineMs: 300 } });
    try {
      const started = Date.now();
      const error = await quick.run(() => failure(fetch(`${dead.base}/inbox`, { method: 'POST', body: '{}' })));
      expect(causeOf(error).name).toBe('TimeoutError');
      expect(Date.now() - started).toBeLessThan(3000);
      await expect.poll(() => dead.stats.closed).toBe(1);
    } finally {
      await dead.close();
    }
  });
});
