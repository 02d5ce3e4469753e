import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, linkParts, post, sessionEmail, waitForMail } from '../../testing/auth-test-kit.js';
import { runImport } from './import.service.js';
import { FIXTURES, importSite } from '../../testing/import-test-support.js';

describe('imported authors', () => {
  let site: Awaited<ReturnType<typeof importSite>>;
  beforeAll(async () => {
    site = await importSite();
    await runImport(site.deps, path.join(FIXTURES, 'ghost-site/ghost-export.json'));
  });
  afterAll(() => site.close());

  it('have no password, sign in by magic link, and own their imported blogs', async () => {
    const email = 'ada@harbour-notes.example';
    const password = await post(site.t.app, '/api/auth/sign-in/email', { email, password: 'any password at all' });
    expect(password.statusCode).toBe(401);
    expect((await post(site.t.app, '/api/auth/sign-in/magic-link', { email })).statusCode).toBe(200);
    const { token } = linkParts((await waitForMail(site.t, email, /sign-in link/)).links[0]!);
    const signedIn = await get(site.t.app, `/api/auth/magic-link/verify?token=${encodeURIComponent(token)}`);
    expect(signedIn.statusCode).toBe(200);
    expect(await sessionEmail(site.t.app, signedIn.cookie)).toBe(email);
    const drafts = await site.t.app.inject({ method: 'GET', url: '/api/drafts?page=1', headers: { cookie: signedIn.cookie } });
    expect(drafts.statusCode).toBe(200);
    expect((drafts.json() as { items: { title: string }[] }).items.map((item) => item.title).sort()).toEqual(['Notes for a winter post', 'Scheduled: the spring tides']);
  });
});
