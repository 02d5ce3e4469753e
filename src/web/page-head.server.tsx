import { absoluteUrl } from '../shared/paths';
import type { SiteInfo } from '../shared/page-render';
import { feedLinks, PAGE_FEED_ATTRIBUTE } from './lib/feed-links';
import { jsonForScript } from './lib/json-script';
import { absoluteImageUrl, accentStyles, fullTitle, pageDescription, type PageMeta } from './lib/page-meta';

/**
 * The tags a page's `<head>` gets on the server: title, description, canonical link, feeds,
 * Open Graph, Twitter card and JSON-LD. React escapes every text and attribute; the JSON-LD is
 * escaped for a script element by `jsonForScript`.
 */
export function PageHead({ meta, site }: { meta: PageMeta; site: SiteInfo }) {
  const url = absoluteUrl(site.publicUrl, meta.path);
  const title = fullTitle(meta, site);
  const image = meta.image ? absoluteImageUrl(site, meta.image) : undefined;
  const description = pageDescription(meta, site);
  const accent = accentStyles(site.accentColour);
  // The home page and each author's page are an identity (`me`) apps sign in with (IndieAuth, issue 60).
  const identity = meta.path === '/' || meta.path.startsWith('/author?');
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
      <link rel="manifest" href="/manifest.webmanifest" />
      {/* After the template's own favicon, so the owner's icon (issue 44) is the one browsers use. */}
      {site.iconUrl && <link rel="icon" href={site.iconUrl} type="image/png" sizes="64x64" />}
      {accent && <style id="site-accent" dangerouslySetInnerHTML={{ __html: accent }} />}
      <link rel="canonical" href={url} />
      {identity && <link rel="indieauth-metadata" href={absoluteUrl(site.publicUrl, '/.well-known/oauth-authorization-server')} />}
      {identity && <link rel="authorization_endpoint" href={absoluteUrl(site.publicUrl, '/indieauth/authorize')} />}
      {identity && <link rel="token_endpoint" href={absoluteUrl(site.publicUrl, '/indieauth/token')} />}
      <link rel="micropub" href={absoluteUrl(site.publicUrl, '/micropub')} />
      {feedLinks(site, meta.feed).map((feed) => (
        <link key={feed.href} rel="alternate" type={feed.type} title={feed.title} href={feed.href} {...(feed.ofPage ? { [PAGE_FEED_ATTRIBUTE]: '' } : {})} />
      ))}
      <meta property="og:type" content={meta.type ?? 'website'} />
      <meta property="og:title" content={meta.title ?? site.name} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta property="og:site_name" content={site.name} />
      {image && <meta property="og:image" content={image} />}
      <meta name="twitter:card" content={image ? 'summary_large_image' : 'summary'} />
      <meta name="twitter:title" content={meta.title ?? site.name} />
      <meta name="twitter:description" content={description} />
      {image && <meta name="twitter:image" content={image} />}
      {meta.jsonLd && <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonForScript(meta.jsonLd) }} />}
    </>
  );
}
