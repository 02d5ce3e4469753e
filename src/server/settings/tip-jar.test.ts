// test-plan: PGlite only (a setting's reach into the navbar; its SQL is the settings' own, tested on Postgres there)
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIP_JAR_URL } from '../../shared/site-settings-schema.js';
import type { SiteSettingsAnswer } from '../../shared/site-settings-form.js';
import { giveRole, saveSettings, settingsWith } from '../testing/site-managers.js';
import { useTestApp } from '../testing/test-app.js';
import { useSignedUpUsers } from '../testing/test-users.js';

/** The href of More's 'Tip jar' item in a page's HTML, or null when the page has none. */
function tipJarOf(html: string): string | null {
  const match = /<a[^>]*href="([^"]*)"[^>]*>Tip jar \(opens a new tab\)<\/a>/.exec(html);
  return match ? match[1]!.replace(/&amp;/g, '&') : null;
}

describe('the tip jar link (issue 58)', () => {
  const t = useTestApp({}, { pages: 'vite' });
  const { owner } = useSignedUpUsers(t, ['owner']);

  it('is the spec’s link until the owner sets another; empty removes it; a link that is not one is refused', { timeout: 120_000 }, async () => {
    await giveRole(t, owner, 'administrator');
    // Signed in, so that More's menu is in the page's HTML.
    const menu = async () => tipJarOf((await t.app.inject({ url: '/about', headers: { cookie: owner.cookie } })).body);

    const fresh = await t.app.inject({ url: '/api/admin/settings', headers: { cookie: owner.cookie } });
    expect(fresh.json<SiteSettingsAnswer>().settings.tipJarUrl).toBe(DEFAULT_TIP_JAR_URL);
    expect(await menu()).toBe('https://www.buymeacoffee.com/');

    expect((await saveSettings(t, owner, settingsWith({ tipJarUrl: 'https://ko-fi.com/harbour?ref=site&x=1' }))).statusCode).toBe(200);
    expect(await menu()).toBe('https://ko-fi.com/harbour?ref=site&x=1');

    for (const bad of ['javascript:alert(1)', '//evil.example', 'ko-fi.com/harbour']) {
      const refused = await saveSettings(t, owner, settingsWith({ tipJarUrl: bad }));
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ error: 'BAD_REQUEST', message: expect.stringContaining('The tip jar link is an http(s) address') });
    }
    expect(await menu()).toBe('https://ko-fi.com/harbour?ref=site&x=1');

    expect((await saveSettings(t, owner, settingsWith({ tipJarUrl: '' }))).statusCode).toBe(200);
    const page = (await t.app.inject({ url: '/about', headers: { cookie: owner.cookie } })).body;
    expect(page).toContain('Log out');
    expect(page).not.toContain('Tip jar');
  });
});
