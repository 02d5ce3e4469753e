/**
 * The contract between the server and the web app's server entry (`src/web/entry-server.tsx`,
 * built into `dist/web-server/`). The server never imports the web's source: it loads the built
 * module, or Vite's dev module, and speaks to it through these types.
 */

/** What every page says about the site: titles, canonical links, feeds. */
export interface SiteInfo {
  name: string;
  /** The public origin, no trailing slash (`PUBLIC_URL`). */
  publicUrl: string;
  /**
   * What the owner set on /admin (issue 44), from the site's settings: the description ('' or
   * unset: the site's own), the accent colour, the navbar's links, the footer's text, and the URLs
   * of the logo and of the favicon. Unset: as the spec has the site.
   */
  description?: string;
  accentColour?: string | null;
  navigation?: { label: string; url: string }[];
  footerText?: string;
  /** 'Show authors by' (issue 58): what the Terms on /about say names an author; unset: e-mail. */
  showAuthorsBy?: 'email' | 'name';
  /** More's tip jar (issue 58): '' for none; unset: the spec's link. */
  tipJarUrl?: string;
  logoUrl?: string | null;
  iconUrl?: string | null;
  /** A fresh site waits for its first account, which becomes its owner (issue 58): the home page says so. */
  firstAccountAwaited?: boolean;
  /** No SMTP server (`SMTP_URL` unset): mail is written to the server's outbox folder, and the "check your e-mail" notices say so. */
  mailToOutbox?: boolean;
}

/** How the web app's data calls reach the API while rendering on the server (in-process). */
export type ApiTransport = (path: string, init: RequestInit) => Promise<Response>;

export type RenderedPage =
  | { kind: 'redirect'; status: number; location: string }
  | {
      kind: 'page';
      status: number;
      /** Tags for `<head>`: title, description, canonical, Open Graph, JSON-LD. */
      head: string;
      /** The app's markup, for `<div id="root">`. */
      body: string;
      /** The dehydrated query cache and router state, for a `type="application/json"` script. */
      state: string;
      /** What the page shows, as its screen declares it, for the response cache; unset: never kept. */
      cacheTags?: readonly string[];
      /**
       * When the app's script loads: at once, or on the reader's first touch (an anonymous
       * reader of a reading page, `Screen.scriptOnFirstTouch`; docs/page-weight.md).
       */
      scripts: PageScripts;
      /** A server error's cause (a loader that threw), for the server's log; never part of the page. */
      error?: unknown;
    };

export type PageScripts = 'at-once' | 'on-first-touch';

/** The `<html>` attribute that tells the page's loader when to load the app (`PageScripts`). */
export const PAGE_SCRIPTS_ATTRIBUTE = 'data-scripts';

/** Who the page is rendered for. */
export interface PageViewer {
  /**
   * The request carries a session cookie: the page is rendered as that reader will see it (the
   * API calls carry the cookie, the session is read and travels with the page). Never cached.
   */
  signedIn: boolean;
}

export interface PageRendererModule {
  setApiTransport(transport: ApiTransport): void;
  /**
   * Renders a page: for an anonymous visitor, a pure function of the URL and the data (the
   * response cache may keep it); for a signed-in reader, with their session (private, uncached).
   */
  renderPage(url: URL, site: SiteInfo, viewer?: PageViewer): Promise<RenderedPage>;
}

/** The id of the JSON script that carries the page's state to the browser. */
export const PAGE_STATE_ID = 'page-state';
