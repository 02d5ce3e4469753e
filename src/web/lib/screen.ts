import type { FetchQueryOptions, QueryClient, QueryKey } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { LoaderFunction } from 'react-router';
import { LIST_PAGE, type PageCaching } from '../../shared/cache-tags';
import { queryLoader } from './load-query';
import type { MetaArgs, MetaFunction, PageMeta } from './page-meta';

/**
 * What each file in `routes/` exports: the screen, the loader that fills the query cache
 * through the screen's own `queryOptions` (on the server and in the browser alike), how the page
 * describes itself, and how its failures read.
 */
export interface Screen {
  Component: ComponentType;
  loader?: (queryClient: QueryClient) => LoaderFunction;
  meta: MetaFunction;
  /**
   * What the page shows, as the response cache's tags, or 'never': the server keeps the page
   * rendered for anonymous readers under them until a write names one (`docs/response-cache.md`).
   */
  cache: PageCaching;
  /**
   * Rendered on the server with the signed-in reader's session: a reading page whose controls
   * (votes, 'Add a comment', the owner's buttons, the menu) depend on who reads. Screens that need
   * a session to show anything at all (the editor, settings) render after hydration instead.
   */
  forTheViewer?: true;
  /**
   * A reading page: an anonymous reader's copy loads the app's script on their first touch (a
   * press, a key, a focus) instead of at once, and what they did then is replayed once it has
   * hydrated (`src/web/loader.ts`, docs/page-weight.md). Signed-in readers get it at once.
   */
  scriptOnFirstTouch?: true;
  /** The start of the message when the data fails to load. */
  loadError?: string;
  /** Shown instead of the generic not-found page when the loader answers 404. */
  NotFound?: ComponentType;
}

/** A reading page of a public list (the tags, a tag's blogs): cached under `lists`, its script loaded on a first touch. */
export const LIST_SCREEN = { scriptOnFirstTouch: true, cache: LIST_PAGE } as const;
/** A list of blogs also rendered with the signed-in reader's session (home, an author's, search). */
export const LIST_SCREEN_FOR_THE_VIEWER = { ...LIST_SCREEN, forTheViewer: true } as const;

/** What a list of blogs says when it fails to load (home, an author's, a tag's). */
export const BLOG_LIST_LOAD_ERROR = 'The blogs could not be loaded.';
/** A list of blogs rendered with the signed-in reader's session (home, an author's). */
export const BLOG_LIST_SCREEN = { ...LIST_SCREEN_FOR_THE_VIEWER, loadError: BLOG_LIST_LOAD_ERROR } as const;

/**
 * The loader and meta of a screen that shows the one list its URL names: `listOf` reads the URL
 * the same way for both, `queryOf` is the list's query (or throws a route error when the URL names
 * none), `metaOf` describes the page.
 */
export function urlListScreen<TList, TData, TKey extends QueryKey>(
  listOf: (url: URL) => TList,
  queryOf: (list: TList) => FetchQueryOptions<TData, Error, TData, TKey>,
  metaOf: (list: TList, args: MetaArgs) => PageMeta,
): Pick<Screen, 'loader' | 'meta'> {
  return { loader: queryLoader((url) => queryOf(listOf(url))), meta: (args) => metaOf(listOf(args.url), args) };
}
