/**
 * A blog's change as the fediverse hears it: queued by federation's consumer of the blog events
 * (`federation/federation-loader.ts`), one per event, and sent by `federation/` as a Create, Update
 * or Delete of the Article to the author's followers. The author's id and handle ride along, so a
 * Delete can be built after the row is gone.
 */
export const BLOG_FEDERATE_JOB = 'blog-federate';

export type BlogFederateAction = 'create' | 'update' | 'delete';

export interface BlogFederatePayload {
  blogId: string;
  action: BlogFederateAction;
  userId: string;
  handle: string;
}

/** What a change of visibility means to followers: appearing is a Create, disappearing a Delete. */
export function federateActionFor(wasPublic: boolean, isPublic: boolean): BlogFederateAction | null {
  if (wasPublic && isPublic) return 'update';
  if (isPublic) return 'create';
  if (wasPublic) return 'delete';
  return null;
}
