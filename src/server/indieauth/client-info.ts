import type { OutgoingRequestGuard } from '../http/public-address.js';

/** What the consent screen says of an app: its name, and the redirect URIs its page lists. */
export interface ClientInfo {
  name: string;
  redirectUris: string[];
}

/** An app's page is read through the public-address guard, briefly and in a small amount. */
export const CLIENT_PAGE_LIMITS = { maxResponseBytes: 256 * 1024, deadlineMs: 5_000 };

const decodeEntities = (text: string) =>
  text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const plain = (html: string) => decodeEntities(html.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim().slice(0, 100);

/**
 * The app's name from its page: the `p-name` of its `h-app` (or `h-x-app`), else its `<title>`;
 * and the `rel="redirect_uri"` links it declares (absolute, resolved against the page).
 */
export function readClientPage(html: string, pageUrl: string): Partial<ClientInfo> {
  let name: string | undefined;
  const app = /<[a-z][^>]*class\s*=\s*["'][^"']*\bh-(?:x-)?app\b[^"']*["'][^>]*>([\s\S]*)/i.exec(html);
  if (app) {
    const inner = /<([a-z][a-z0-9]*)[^>]*class\s*=\s*["'][^"']*\bp-name\b[^"']*["'][^>]*>([\s\S]*?)<\/\1>/i.exec(app[1]!);
    if (inner) name = plain(inner[2]!) || undefined;
  }
  if (!name) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
    if (title) name = plain(title[1]!) || undefined;
  }
  const redirectUris: string[] = [];
  for (const link of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = link[0];
    if (!/\brel\s*=\s*["'][^"']*\bredirect_uri\b/i.test(tag)) continue;
    const href = /\bhref\s*=\s*["']([^"']+)["']/i.exec(tag);
    if (href && URL.canParse(decodeEntities(href[1]!), pageUrl)) redirectUris.push(new URL(decodeEntities(href[1]!), pageUrl).href);
  }
  return { name, redirectUris };
}

/**
 * Fetches the app's `client_id` page through the guard (public addresses only, 5 seconds, 256 KB);
 * on any failure the app is named by its host, and declares no other redirect URIs.
 */
export async function fetchClientInfo(guard: OutgoingRequestGuard, clientId: string): Promise<ClientInfo> {
  const fallback: ClientInfo = { name: new URL(clientId).host, redirectUris: [] };
  try {
    await guard.assertAllowed(clientId);
    return await guard.run(async () => {
      const response = await fetch(clientId, { headers: { accept: 'text/html' }, signal: AbortSignal.timeout(CLIENT_PAGE_LIMITS.deadlineMs), redirect: 'follow' });
      if (!response.ok || !/html/i.test(response.headers.get('content-type') ?? '')) return fallback;
      const page = readClientPage(await response.text(), response.url || clientId);
      return { name: page.name ?? fallback.name, redirectUris: page.redirectUris ?? [] };
    });
  } catch {
    return fallback;
  }
}
