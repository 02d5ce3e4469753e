import DataLoader from 'dataloader';
import type { Kysely } from 'kysely';
import type { BlogSummary } from '../../shared/blog-schema.js';
import type { Database, VoteDirection } from '../db/schema.js';
import { selectVotesOf } from './blog-rows.repository.js';

interface VotesAsked {
  viewerId: string;
  blogIds: readonly string[];
}

/** Each viewer's own votes on the blogs of the page they are shown, by blog id. */
export type ViewerVotes = (viewerId: string, blogIds: readonly string[]) => Promise<Map<string, VoteDirection>>;

/**
 * Signed-in readers' own votes on the list pages they are shown, read for many answers at once:
 * the requests that reach this point within one turn of the event loop share one query, so a
 * crowd of signed-in readers costs Postgres one round trip per turn instead of one per answer.
 * Nothing is kept between turns (`cache: false`): every answer reads the votes as they are now.
 */
export function createViewerVotes(db: Kysely<Database>): ViewerVotes {
  const loader = new DataLoader<VotesAsked, Map<string, VoteDirection>>(
    async (asked) => {
      const viewers = [...new Set(asked.map((one) => one.viewerId))];
      const blogs = [...new Set(asked.flatMap((one) => one.blogIds))];
      // Every viewer's votes on every blog asked for: a superset, sorted out per request below.
      const rows = await selectVotesOf(db, viewers, blogs);
      const byViewer = new Map<string, Map<string, VoteDirection>>();
      for (const row of rows) {
        let mine = byViewer.get(row.user_id);
        if (!mine) byViewer.set(row.user_id, (mine = new Map()));
        mine.set(row.blog_id, row.direction);
      }
      return asked.map(({ viewerId, blogIds }) => {
        const mine = byViewer.get(viewerId);
        return new Map(blogIds.flatMap((id) => (mine?.has(id) ? [[id, mine.get(id)!] as const] : [])));
      });
    },
    // One turn of the event loop: the requests read from every socket in it share the query.
    { cache: false, batchScheduleFn: (run) => setImmediate(run), maxBatchSize: 200 },
  );
  return async (viewerId, blogIds) => (blogIds.length === 0 ? new Map() : loader.load({ viewerId, blogIds }));
}

/** Cards as the viewer sees them: each with the viewer's own vote (the shared cards are not changed). */
export async function withViewerVotes<T extends BlogSummary>(viewerVotes: ViewerVotes, viewerId: string | null, items: T[]): Promise<T[]> {
  if (viewerId === null) return items;
  const mine = await viewerVotes(viewerId, items.map((item) => item.id));
  return items.map((item) => {
    const myVote = mine.get(item.id);
    return myVote ? { ...item, myVote } : item;
  });
}
