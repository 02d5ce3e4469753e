import proxyAddr from '@fastify/proxy-addr';

/**
 * Fastify's `trustProxy` for a list of proxies (TRUST_PROXY: addresses, CIDRs, or proxy-addr's
 * names such as `loopback`): proxy-addr's own check, as Fastify would compile it, with its verdict
 * on the connection's own address (hop 0: the proxy, or a client that came directly) kept. Each
 * request asked it about the proxy again, and parsing an address is most of what `request.ip`
 * costs (half of counting a view, in a profile of the home page behind a proxy). The addresses a
 * proxy forwards are checked as before: a crowd of new ones would only churn a memory of them.
 * A compiled list does not consult the hop, so a verdict is the address's at any hop.
 */
export function trustedProxies(list: readonly string[]): (address: string, hop: number) => boolean {
  const trust = proxyAddr.compile([...list]);
  const verdicts = new Map<string, boolean>();
  return (address, hop) => {
    if (hop > 0) return trust(address, hop);
    let verdict = verdicts.get(address);
    if (verdict === undefined) {
      verdict = trust(address, hop);
      if (verdicts.size >= 1_000) verdicts.clear();
      verdicts.set(address, verdict);
    }
    return verdict;
  };
}
