import { beforeAll, describe, expect, it, vi } from 'vitest';
import { BLOG_FEDERATE_JOB, type BlogFederatePayload } from '../core/blog-federation.js';
import type { JobKind, JobQueue } from '../queue/job-queue.js';
import { useTestApp } from '../testing/test-app.js';
import { createSignedInUsers } from '../testing/signed-in-users.js';
import type { TestUser } from '../testing/test-users.js';
import type { SiteFederation } from './federation.js';
import { registerFederationJobs } from './federation-loader.js';

describe('the blog hook loads Fedify only for an author somebody follows', () => {
  const t = useTestApp();
  const users = { author: {} as TestUser };
  beforeAll(async () => {
    const [author] = await createSignedInUsers({ db: t.database.db, authSecret: t.config.authSecret }, 1);
    Object.assign(users.author, author);
  });

  function registered() {
    const kinds = new Map<string, JobKind<unknown>>();
    const queue = { register: (kind: JobKind<unknown>) => kinds.set(kind.kind, kind) } as unknown as JobQueue;
    const federateBlog = vi.fn(async () => {});
    const load = vi.fn(async () => ({ federateBlog }) as unknown as SiteFederation);
    registerFederationJobs(queue, t.database.db, load);
    const run = (payload: BlogFederatePayload) => kinds.get(BLOG_FEDERATE_JOB)!.run({ payload } as never, {} as never);
    return { run, load, federateBlog };
  }

  it('with no follower the job ends without loading it; with one it loads it and federates', async () => {
    const { run, load, federateBlog } = registered();
    const payload: BlogFederatePayload = { blogId: '00000000-0000-4000-8000-000000000001', action: 'create', userId: users.author.id, handle: 'someone' };
    await run(payload);
    expect(load).not.toHaveBeenCalled();

    await t.database.db
      .insertInto('federation_followers')
      .values({ user_id: users.author.id, actor_id: 'https://remote.invalid/users/reader', inbox_url: 'https://remote.invalid/users/reader/inbox', shared_inbox_url: null, handle: 'reader@remote.invalid', name: 'Reader', follow_id: 'https://remote.invalid/follows/1' })
      .execute();
    try {
      await run(payload);
      expect(load).toHaveBeenCalledTimes(1);
      expect(federateBlog).toHaveBeenCalledWith(payload);
    } finally {
      await t.database.db.deleteFrom('federation_followers').where('user_id', '=', users.author.id).execute();
    }
  });
});
