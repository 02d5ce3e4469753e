import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { trustedProxies } from './trusted-proxies.js';

const LIST = ['10.0.0.1', '192.168.0.0/16', 'loopback', '2001:db8::/32'];

/** What a Fastify app with this `trustProxy` takes as the client's address and its chain. */
async function addresses(trustProxy: string[] | ((address: string, hop: number) => boolean), remoteAddress: string, forwardedFor?: string) {
  const app = Fastify({ trustProxy });
  app.get('/', async (request) => ({ ip: request.ip, ips: request.ips }));
  const response = await app.inject({ url: '/', remoteAddress, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
  await app.close();
  return response.json() as { ip: string; ips: string[] };
}

describe('trustedProxies: the TRUST_PROXY list with its verdicts kept', () => {
  const cases: Array<[string, string | undefined]> = [
    ['127.0.0.1', '203.0.113.7'],
    ['::ffff:127.0.0.1', '203.0.113.7'],
    ['10.0.0.1', '203.0.113.7, 192.168.4.4'],
    ['10.0.0.1', '198.51.100.1, 203.0.113.7, 10.0.0.2'],
    ['10.0.0.2', '203.0.113.7'],
    ['192.168.9.9', 'not an address, 203.0.113.8'],
    ['::1', '2001:db8::5, 2001:db9::1'],
    ['203.0.113.9', undefined],
  ];

  it('gives every request the address and chain Fastify gives with the list itself', async () => {
    const kept = trustedProxies(LIST);
    for (const [remoteAddress, forwardedFor] of cases) {
      // Twice: the second time every verdict comes from memory.
      for (let round = 0; round < 2; round++) {
        expect(await addresses(kept, remoteAddress, forwardedFor), `${remoteAddress} ${forwardedFor} (round ${round + 1})`).toEqual(await addresses(LIST, remoteAddress, forwardedFor));
      }
    }
  });

  it('keeps a bounded number of verdicts and still answers alike past it', () => {
    const kept = trustedProxies(['10.0.0.0/8']);
    for (let i = 0; i < 2_500; i++) expect(kept(`10.${i % 256}.${Math.floor(i / 256)}.1`, 0)).toBe(true);
    expect(kept('11.0.0.1', 0)).toBe(false);
    expect(kept('10.0.0.1', 3)).toBe(true);
    expect(kept('11.0.0.1', 1)).toBe(false);
  });
});
