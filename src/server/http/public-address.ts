import { AsyncLocalStorage } from 'node:async_hooks';
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { lookup as dnsLookupAll } from 'node:dns/promises';
import { EventEmitter } from 'node:events';
import { BlockList, isIP } from 'node:net';

/**
 * The one place that decides where the server may send a request on someone else's word (issue
 * 42): an inbox another server named, an actor, key, object or context a remote document points
 * at, a WebFinger host. Only public addresses: every special-purpose range of the IANA registries
 * is refused, an IPv4 address written inside IPv6 (mapped, NAT64) is judged as that IPv4 address,
 * and the decision is taken on the addresses a name resolves to, at the moment of connecting.
 *
 * Two ways in. `assertPublicUrl` answers ahead of time (refuse a follower whose inbox is private,
 * drop a delivery without retrying it). `OutgoingRequestGuard.run` is what makes it hold: every
 * `fetch` started inside it (Fedify's included; they call the global `fetch`) connects through an
 * agent whose DNS lookup refuses non-public answers and whose dispatch refuses a non-public IP
 * literal, so each redirect, each retry and a DNS answer that changed since the check are judged
 * again where the socket is opened.
 *
 * The same scope bounds the answers (issue 56): a guarded request reads at most
 * `maxResponseBytes` of its answer, asks for it uncompressed (a small gzip can unpack to
 * gigabytes after the count), and ends within `deadlineMs`, headers and body; past either the
 * request is aborted and its socket destroyed, whatever the caller does with the body.
 */

/** IPv4 special-purpose ranges (RFC 6890 and the IANA registry); nothing federates from them. */
const NON_PUBLIC_IPV4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 itself
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, where cloud metadata services answer
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255
];

/**
 * IPv6: only global unicast (2000::/3) is public, less its special ranges; in the low block only
 * IPv4-mapped (::ffff:0:0/96, which `BlockList` itself judges by the IPv4 rules) and NAT64's
 * well-known prefix (64:ff9b::/96, judged by the IPv4 address it carries) can be.
 */
const NON_PUBLIC_IPV6_RANGES: ReadonlyArray<readonly [string, string]> = [
  ['::', '::fffe:ffff:ffff'], // unspecified, loopback, IPv4-compatible
  ['::1:0:0:0', '64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff'], // IPv4-translated (::ffff:0:0:0/96) and the rest up to NAT64
  ['64:ff9b:0:0:0:1::', '1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], // local-use NAT64, discard-only (100::/64), unassigned
];
const NON_PUBLIC_IPV6_SUBNETS: ReadonlyArray<readonly [string, number]> = [
  ['2001::', 23], // IETF protocol assignments, Teredo among them
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: carries an IPv4 address of any kind
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // SRv6 SIDs
  ['4000::', 2], // not allocated
  ['8000::', 1], // unique local, link-local, site-local, multicast and the unallocated rest
];
const NAT64_PREFIX = '64:ff9b::';

const nonPublic = new BlockList();
for (const [network, prefix] of NON_PUBLIC_IPV4) {
  nonPublic.addSubnet(network, prefix, 'ipv4');
  nonPublic.addSubnet(NAT64_PREFIX + ipv4AsWords(network), 96 + prefix, 'ipv6');
}
for (const [start, end] of NON_PUBLIC_IPV6_RANGES) nonPublic.addRange(start, end, 'ipv6');
for (const [network, prefix] of NON_PUBLIC_IPV6_SUBNETS) nonPublic.addSubnet(network, prefix, 'ipv6');

function ipv4AsWords(address: string): string {
  const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** Whether `address` (an IP address as written by DNS or a socket) is one the public internet routes to. */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 0) return false;
  return !nonPublic.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/** What a guarded request may cost: the bytes of its answer, and the time from dispatch to its last byte. */
export interface ResponseLimits {
  maxResponseBytes: number;
  deadlineMs: number;
}

/** JSON-LD documents, WebFinger answers and inboxes' replies are a few kilobytes; a megabyte is plenty. */
export const DEFAULT_RESPONSE_LIMITS: ResponseLimits = { maxResponseBytes: 1024 * 1024, deadlineMs: 30_000 };

/** An answer longer than the limit (by its Content-Length, or as it streams), or compressed when it was asked not to be. */
export class ResponseTooLargeError extends Error {
  override name = 'ResponseTooLargeError';
  readonly code = 'ERR_RESPONSE_TOO_LARGE';
}

/** A guarded request that had not finished within its deadline. */
export class ResponseDeadlineError extends Error {
  override name = 'TimeoutError';
  readonly code = 'ERR_RESPONSE_DEADLINE';
}

/** A request the guard refuses: the URL's scheme, its IP literal or what its name resolves to is not public. */
export class NonPublicAddressError extends Error {
  override name = 'NonPublicAddressError';
  readonly code = 'ERR_NON_PUBLIC_ADDRESS';
}

/**
 * The IP address a URL's host is, in any of the forms a URL parser accepts (`2130706433`,
 * `0177.0.0.1`, `127.1`, `0x7f.1`, `[::ffff:127.0.0.1]` are all 127.0.0.1), or null for a name.
 */
export function hostAddress(url: URL): string | null {
  // WHATWG URL parsing has already turned every IPv4 shorthand into dotted decimal.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) === 0 ? null : host;
}

const LOCAL_NAME = /(^|\.)localhost\.?$/i;

/** Refuses the URL unless it is http(s) on a public address: a literal one, or a name whose every address is public. */
export async function assertPublicUrl(input: string | URL, isAllowed: (address: string) => boolean = isPublicAddress): Promise<void> {
  const url = new URL(input);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new NonPublicAddressError(`Only http and https are fetched, not ${url.protocol}`);
  const literal = hostAddress(url);
  if (literal !== null) {
    if (!isAllowed(literal)) throw new NonPublicAddressError(`${literal} is not a public address`);
    return;
  }
  if (LOCAL_NAME.test(url.hostname)) throw new NonPublicAddressError(`${url.hostname} is not a public name`);
  const addresses = await dnsLookupAll(url.hostname, { all: true, verbatim: true });
  refuseUnlessAllAllowed(url.hostname, addresses, isAllowed);
}

function refuseUnlessAllAllowed(hostname: string, addresses: readonly LookupAddress[], isAllowed: (address: string) => boolean): void {
  if (addresses.length === 0) throw new NonPublicAddressError(`${hostname} has no address`);
  // One private answer is enough to refuse: which one a connection would take is not ours to pick.
  const refused = addresses.find(({ address }) => !isAllowed(address));
  if (refused) throw new NonPublicAddressError(`${hostname} resolves to ${refused.address}, not a public address`);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** `dns.lookup` for the sockets of guarded requests: the same answer, or an error when any address is refused. */
function guardedLookup(isAllowed: (address: string) => boolean) {
  return (hostname: string, options: { all?: boolean; family?: number | string; hints?: number }, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses) => {
      if (error) return callback(error, []);
      try {
        refuseUnlessAllAllowed(hostname, addresses, isAllowed);
      } catch (refusal) {
        return callback(refusal as NodeJS.ErrnoException, []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/** What Node's `fetch` asks of a dispatcher (undici's protocol), and what an undici `Agent` is built from. */
interface Dispatcher {
  dispatch(options: { origin?: string | URL }, handler: unknown): boolean;
  close(): Promise<void>;
  destroy(): Promise<void>;
}
type AgentClass = new (options: { connect: { lookup: ReturnType<typeof guardedLookup> } }) => Dispatcher;

/** Undici's cross-version slot for the dispatcher the global `fetch` uses (what its `setGlobalDispatcher` writes). */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');
type GlobalWithDispatcher = typeof globalThis & { [GLOBAL_DISPATCHER]?: Dispatcher };

/** Inside `run`: the rule addresses are judged by (null: any address), and the answer's limits. */
interface Scope {
  isAllowed: ((address: string) => boolean) | null;
  limits: ResponseLimits;
}
const scope = new AsyncLocalStorage<Scope>();

type RawHeaders = ReadonlyArray<Buffer | string> | null | undefined;
const headerValue = (raw: RawHeaders, name: string): string | undefined => {
  for (let index = 0; raw && index + 1 < raw.length; index += 2) if (String(raw[index]).toLowerCase() === name) return String(raw[index + 1]);
  return undefined;
};

/**
 * The handler `fetch` gave the dispatcher, with the limits in front of it. Node's `fetch` speaks
 * undici's first handler protocol (`onConnect(abort)`, `onHeaders`, `onData`, `onComplete`,
 * `onError`); everything else passes through. Aborting through undici's `abort` errors the
 * response (the caller's `text()` or reader rejects with the reason) and destroys the socket.
 */
function limitedHandler(handler: object, limits: ResponseLimits): object {
  const target = handler as Record<string, (...args: unknown[]) => unknown>;
  let abort: ((reason: Error) => void) | undefined;
  let early: Error | undefined;
  let received = 0;
  let over = false;
  const stop = (reason: Error) => {
    if (over) return;
    over = true;
    clearTimeout(deadline);
    if (abort) abort(reason);
    else early = reason;
  };
  const deadline = setTimeout(() => stop(new ResponseDeadlineError(`No complete answer within ${limits.deadlineMs / 1000} s`)), limits.deadlineMs);
  deadline.unref();
  const tooLarge = (what: string) => new ResponseTooLargeError(`The answer ${what} is more than the ${limits.maxResponseBytes} bytes read of it`);
  const wrapped: Record<string, (...args: never[]) => unknown> = {
    onConnect(abortRequest: (reason: Error) => void, ...rest: unknown[]) {
      abort = abortRequest;
      const result = target.onConnect?.call(handler, abortRequest, ...rest);
      if (early) abortRequest(early);
      return result;
    },
    onHeaders(status: number, raw: RawHeaders, ...rest: unknown[]) {
      const length = Number(headerValue(raw, 'content-length') ?? 0);
      if (length > limits.maxResponseBytes) {
        stop(tooLarge(`(Content-Length ${length})`));
        return false;
      }
      const encoding = headerValue(raw, 'content-encoding')?.trim().toLowerCase();
      if (encoding && encoding !== 'identity') {
        stop(new ResponseTooLargeError(`The answer is compressed (${encoding}), though it was asked for uncompressed: its size could not be bounded`));
        return false;
      }
      return target.onHeaders!.call(handler, status, raw, ...rest);
    },
    onData(chunk: Buffer) {
      if (over) return false;
      received += chunk.length;
      if (received > limits.maxResponseBytes) {
        stop(tooLarge('as it streamed'));
        return false;
      }
      return target.onData!.call(handler, chunk);
    },
    onComplete(...args: unknown[]) {
      clearTimeout(deadline);
      return target.onComplete?.call(handler, ...args);
    },
    onError(...args: unknown[]) {
      clearTimeout(deadline);
      return target.onError?.call(handler, ...args);
    },
  };
  return new Proxy(handler, {
    get(object, property) {
      if (typeof property === 'string' && Object.hasOwn(wrapped, property)) return wrapped[property];
      const value = Reflect.get(object, property, object) as unknown;
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/** The request's options asking for an uncompressed answer (the count above is of the bytes the caller will hold). */
function uncompressed<O extends { headers?: unknown }>(options: O): O {
  const headers = options.headers;
  if (Array.isArray(headers) || (headers !== undefined && headers !== null && typeof headers !== 'object')) return options;
  const kept = Object.fromEntries(Object.entries((headers ?? {}) as Record<string, unknown>).filter(([name]) => name.toLowerCase() !== 'accept-encoding'));
  return { ...options, headers: { ...kept, 'accept-encoding': 'identity' } };
}

/**
 * Sits in the global dispatcher's slot: outside a guarded scope it hands every request to the
 * dispatcher that was there (nothing changes for the site's own requests: AI, S3, auth providers);
 * inside, to an agent of the same class whose sockets only reach allowed addresses. The two pools
 * stay apart, so a kept-alive connection of the site's own never carries a guarded request.
 */
class ScopedDispatcher extends EventEmitter implements Dispatcher {
  private readonly guarded = new Map<(address: string) => boolean, Dispatcher>();

  constructor(
    readonly trusted: Dispatcher,
    /** Null when the dispatcher that was there is not a plain undici Agent (a proxy's): nothing guarded can be sent. */
    private readonly Agent: AgentClass | null,
  ) {
    super();
  }

  dispatch(options: { origin?: string | URL; headers?: unknown }, handler: unknown): boolean {
    const current = scope.getStore();
    if (!current) return this.trusted.dispatch(options, handler);
    // Private addresses allowed: only the limits apply, on the site's own pool (a proxy's included).
    if (!current.isAllowed) return this.trusted.dispatch(uncompressed(options), limitedHandler(handler as object, current.limits));
    // A proxy connects where it likes: the address rule cannot be held there (config.ts refuses NODE_USE_ENV_PROXY with a proxy set).
    if (!this.Agent) throw new Error('Outgoing requests cannot be limited to public addresses: the global fetch dispatcher is not an undici Agent (is an HTTP proxy set?)');
    // A literal address is connected to without a lookup: judge it here (fetch rejects with this as its cause).
    const literal = options.origin === undefined ? null : hostAddress(new URL(options.origin));
    if (literal !== null && !current.isAllowed(literal)) throw new NonPublicAddressError(`${literal} is not a public address`);
    return this.agentFor(current.isAllowed).dispatch(uncompressed(options), limitedHandler(handler as object, current.limits));
  }

  private agentFor(isAllowed: (address: string) => boolean): Dispatcher {
    let agent = this.guarded.get(isAllowed);
    if (!agent) {
      agent = new this.Agent!({ connect: { lookup: guardedLookup(isAllowed) } });
      this.guarded.set(isAllowed, agent);
    }
    return agent;
  }

  async close(): Promise<void> {
    await Promise.all([this.trusted, ...this.guarded.values()].map((dispatcher) => dispatcher.close()));
  }

  async destroy(): Promise<void> {
    await Promise.all([this.trusted, ...this.guarded.values()].map((dispatcher) => dispatcher.destroy()));
  }
}

/**
 * Puts the scoped dispatcher in the global slot (again, should anything have replaced it). Node's
 * `fetch` makes its own dispatcher on first use, so one throwaway `data:` fetch makes sure there
 * is one; the guarded agents are of its class, the one that speaks the handler protocol of the
 * `fetch` in use. Anything else there (a proxy agent) cannot be guarded: a guarded request is
 * refused rather than leaked, and only when one is made (answering WebFinger needs none).
 */
async function installScopedDispatcher(): Promise<void> {
  const slot = globalThis as GlobalWithDispatcher;
  if (slot[GLOBAL_DISPATCHER] instanceof ScopedDispatcher) return;
  if (!slot[GLOBAL_DISPATCHER]) await fetch('data:,');
  const current = slot[GLOBAL_DISPATCHER];
  if (current instanceof ScopedDispatcher) return;
  if (!current) throw new Error('Outgoing requests cannot be limited: the global fetch has no dispatcher');
  const Agent = current.constructor as AgentClass;
  slot[GLOBAL_DISPATCHER] = new ScopedDispatcher(current, Agent.name === 'Agent' ? Agent : null);
}

export interface OutgoingRequestGuard {
  /** Whether private addresses are allowed (`FEDERATION_ALLOW_PRIVATE_ADDRESS`): then the guard lets everything through. */
  readonly allowPrivateAddress: boolean;
  /** Throws `NonPublicAddressError` when `url` may not be requested (DNS failures throw their own error). */
  assertAllowed(url: string | URL): Promise<void>;
  /** Runs `work`; every `fetch` it starts, however deep, connects only to allowed addresses and reads a bounded answer. */
  run<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * The guard for requests made on someone else's word. `allowPrivateAddress` (tests between local
 * sites, private networks) turns the address rule off, never the limits. `isAllowed` is for this
 * module's tests (a rule that lets one loopback address through, to see a redirect to another refused).
 */
export function outgoingRequestGuard(options: { allowPrivateAddress: boolean; isAllowed?: (address: string) => boolean; limits?: Partial<ResponseLimits> }): OutgoingRequestGuard {
  const rule: Scope = { isAllowed: options.allowPrivateAddress ? null : (options.isAllowed ?? isPublicAddress), limits: { ...DEFAULT_RESPONSE_LIMITS, ...options.limits } };
  return {
    allowPrivateAddress: options.allowPrivateAddress,
    assertAllowed: async (url) => {
      if (rule.isAllowed) await assertPublicUrl(url, rule.isAllowed);
    },
    async run(work) {
      await installScopedDispatcher();
      return scope.run(rule, work);
    },
  };
}
