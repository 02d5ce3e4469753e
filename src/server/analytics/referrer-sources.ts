import type { AnalyticsSource } from '../../shared/analytics-schema.js';

/**
 * Where a reader came from, by the referring host and the link's `utm_*` parameters. Lists of
 * hosts are matched on the host and its parent domains (`news.google.com` is `google.com`).
 */
const SEARCH = ['google', 'bing.com', 'duckduckgo.com', 'yahoo.com', 'yandex.ru', 'yandex.com', 'baidu.com', 'ecosia.org', 'startpage.com', 'qwant.com', 'kagi.com', 'search.brave.com', 'naver.com', 'seznam.cz', 'mojeek.com'];
const SOCIAL = [
  'facebook.com', 'fb.me', 'instagram.com', 't.co', 'twitter.com', 'x.com', 'linkedin.com', 'lnkd.in', 'reddit.com', 'news.ycombinator.com',
  'lobste.rs', 'bsky.app', 'threads.net', 'youtube.com', 'pinterest.com', 'tumblr.com', 'tiktok.com', 'vk.com', 'discord.com', 'slack.com',
  'telegram.org', 't.me', 'whatsapp.com',
];
/** Fediverse servers go by many names: these are the common software's own and the big servers'. */
const FEDIVERSE = ['mastodon.social', 'mastodon.online', 'mstdn.social', 'fosstodon.org', 'hachyderm.io', 'infosec.exchange', 'mas.to', 'social.coop', 'pixelfed.social', 'misskey.io', 'lemmy.world', 'kbin.social', 'pleroma.social'];
const FEDIVERSE_WORDS = /(^|\.)(mastodon|mstdn|masto|toot|pleroma|akkoma|misskey|pixelfed|lemmy|kbin|mbin|friendica|gotosocial|sharkey|fedi)[a-z0-9-]*\./;
const EMAIL = ['mail.google.com', 'outlook.live.com', 'outlook.office.com', 'outlook.office365.com', 'mail.yahoo.com', 'mail.proton.me', 'app.fastmail.com', 'webmail', 'mail.aol.com', 'mail.zoho.com', 'substack.com'];
const FEEDS = ['feedly.com', 'inoreader.com', 'feedbin.com', 'newsblur.com', 'theoldreader.com', 'netnewswire.com', 'bazqux.com', 'feedbro', 'miniflux.app', 'readwise.io'];

function matches(host: string, list: readonly string[]): boolean {
  return list.some((entry) => host === entry || host.endsWith(`.${entry}`) || (!entry.includes('.') && (host.startsWith(`${entry}.`) || host.includes(`.${entry}.`))));
}

/** The referrer's host, lower-cased without `www.`; none for no referrer, a bad one, or the site's own pages. */
export function referrerHost(referer: string | undefined, siteHost: string): string | null {
  if (!referer || !URL.canParse(referer)) return null;
  const url = new URL(referer);
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'android-app:') return null;
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  if (!host || host === siteHost) return null;
  return host.slice(0, 253);
}

export function sourceOf(host: string | null, utm: { source: string | null; medium: string | null }): AnalyticsSource {
  if (host === null && utm.source === null && utm.medium === null) return 'direct';
  const medium = utm.medium?.toLowerCase() ?? '';
  const source = utm.source?.toLowerCase() ?? '';
  if (/^(e-?mail|newsletter)$/.test(medium) || /newsletter|e-?mail/.test(source)) return 'email';
  if (/^(rss|atom|feed)$/.test(medium) || /^(rss|feed)$/.test(source)) return 'feeds';
  if (/^(mastodon|fediverse|activitypub)$/.test(source) || medium === 'fediverse') return 'fediverse';
  if (/^(social|social-media|social_media)$/.test(medium)) return 'social';
  if (host === null) return 'direct';
  // Web mail first: mail.google.com is Google's, but no search.
  if (matches(host, EMAIL)) return 'email';
  if (matches(host, SEARCH)) return 'search';
  if (matches(host, FEDIVERSE) || FEDIVERSE_WORDS.test(`${host}.`)) return 'fediverse';
  if (matches(host, SOCIAL)) return 'social';
  if (matches(host, FEEDS)) return 'feeds';
  return 'other';
}
