import proxyAddr from '@fastify/proxy-addr';

/**
 * Fastify's `trustProxy` for a list of proxies (TRUST_PROXY: addresses, CIDRs, or proxy-addr's
 * names such as `loopback`): proxy-addr's own check, as Fastify would compile it, with its verdict
 * kept per address. Every request asks it about the proxy's address again, and parsing an address
 * is most of what `request.ip` costs (a third of counting a view, in a profile of the home page
 * behind a proxy). The hop number is not consulted by a compiled list, so an address's verdict is
 * the same at any hop.
 */
export function trustedProxies(list: readonly string[]): (address: string, hop: number) => boolean {
  const trust = proxyAddr.compile([...list]);
  const verdicts = new Map<string, boolean>();
  return (address, hop) => {
    let verdict = verdicts.get(address);
    if (verdict === undefined) {
      verdict = trust(address, hop);
      if (verdicts.size >= 1_000) verdicts.clear();
      verdicts.set(address, verdict);
    }
    return verdict;
  };
}
