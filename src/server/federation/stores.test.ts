import { Temporal } from '@js-temporal/polyfill';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../testing/test-app.js';
import { createKvStore, removeExpiredKv } from './kv-store.js';
import { createMessageQueue, FEDERATION_MESSAGE_JOB } from './message-queue.js';

/** Fedify's key-value store and message queue on our database (this file runs on PGlite and on Postgres). */
describe('federation stores', () => {
  const t = useTestApp();

  it('the key-value store gets, sets, lists by prefix, expires, deletes and compares-and-swaps', async () => {
    const kv = createKvStore(t.database.db);
    expect(await kv.get(['a', 'b'])).toBeUndefined();
    await kv.set(['a', 'b'], { n: 1 });
    await kv.set(['a', 'c'], 'two');
    await kv.set(['ab'], 3);
    expect(await kv.get(['a', 'b'])).toEqual({ n: 1 });
    await kv.set(['a', 'b'], { n: 2 });
    expect(await kv.get(['a', 'b'])).toEqual({ n: 2 });

    const listed = [];
    for await (const entry of kv.list(['a'])) listed.push(entry);
    // `['ab']` shares the text prefix "a" but not the key prefix ['a'].
    expect(listed).toEqual([{ key: ['a', 'b'], value: { n: 2 } }, { key: ['a', 'c'], value: 'two' }]);

    await kv.set(['short'], 'lived', { ttl: Temporal.Duration.from({ milliseconds: 1 }) });
    await t.database.db.updateTable('federation_kv').set({ expires_at: new Date(Date.now() - 1000) }).where('key', '=', 'short').execute();
    expect(await kv.get(['short'])).toBeUndefined();
    expect(await removeExpiredKv(t.database.db)).toBe(1);
    expect(await t.database.db.selectFrom('federation_kv').select('key').where('key', '=', 'short').execute()).toEqual([]);
    await kv.set(['long'], 'lived', { ttl: Temporal.Duration.from({ hours: 1 }) });
    expect(await kv.get(['long'])).toBe('lived');

    expect(await kv.cas!(['a', 'c'], 'wrong', 'new')).toBe(false);
    expect(await kv.cas!(['a', 'c'], 'two', 'new')).toBe(true);
    expect(await kv.get(['a', 'c'])).toBe('new');
    expect(await kv.cas!(['fresh'], undefined, 1)).toBe(true);
    expect(await kv.get(['fresh'])).toBe(1);

    await kv.delete(['a', 'b']);
    expect(await kv.get(['a', 'b'])).toBeUndefined();
  });

  it('the message queue stores each message as a durable job, a delay as its run_at, and runs it through the listener', async () => {
    const wakes: number[] = [];
    const mq = createMessageQueue(t.database.db, { wake: () => wakes.push(1) });
    await expect(mq.handle({})).rejects.toThrow('has not started listening');
    const seen: unknown[] = [];
    const controller = new AbortController();
    const listening = mq.listen((message) => {
      seen.push(message);
    }, { signal: controller.signal });

    await mq.enqueue({ type: 'now' });
    await mq.enqueue({ type: 'later' }, { delay: Temporal.Duration.from({ minutes: 5 }) });
    expect(wakes.length).toBe(2);
    const jobs = await t.database.db.selectFrom('queued_jobs').select(['payload', 'run_at']).where('kind', '=', FEDERATION_MESSAGE_JOB).orderBy('run_at').execute();
    expect(jobs.map((job) => (job.payload as { message: { type: string } }).message.type)).toEqual(['now', 'later']);
    expect(new Date(jobs[1]!.run_at).getTime() - Date.now()).toBeGreaterThan(4 * 60_000);

    await mq.handle({ type: 'now' });
    expect(seen).toEqual([{ type: 'now' }]);
    controller.abort();
    await listening;
  });
});
