/**
 * What a write changed that readers see, said as response-cache tags (`shared/cache-tags.ts`):
 * the answers kept under them go, in this process at once and in every other by a notice.
 *
 * One way, for every write (docs/response-cache.md, "What a write changes"):
 * - a request's write says it where its route is defined: `changes(tags)` when the route knows
 *   them, `changes(reportedChanges)` when only its handler does, which then calls
 *   `reportChanges(request, tags)` (an empty list: nothing readers see changed, as a draft saved);
 * - work outside a request (a queued job, the inbox, a start-up backfill) calls
 *   `contentChanges.changed(tags)`, which `buildApp` hands in as a dependency;
 * - a change of a blog's visibility is also said by the blog's event (`core/blog-events.ts`),
 *   whose consumer calls the same `changed`.
 */
export interface ContentChanges {
  changed(tags: readonly string[]): Promise<void>;
}

/** Where no cache listens (a command line, a test of a service alone). */
export const noContentChanges: ContentChanges = { changed: async () => {} };
