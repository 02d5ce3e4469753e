import { describe, expect, it, vi } from 'vitest';
import { giveRole, saveSettings, settingsWith } from '../testing/site-managers.js';
import { startSecondApp, useTestApp } from '../testing/test-app.js';
import { useSignedUpUsers } from '../testing/test-users.js';

// Runs in the `postgres` Vitest project only, where two apps can share one database.
describe('site settings across two app processes on one Postgres (issue 44)', () => {
  // The response cache on: the other process's cached feed and its copy of the settings both go.
  const t = useTestApp({ RESPONSE_CACHE_MB: '8' });
  const { admin } = useSignedUpUsers(t, ['admin']);

  it('a setting saved through one process is what the other serves, without a restart', async () => {
    await giveRole(t, admin, 'administrator');
    const other = await startSecondApp(t);
    try {
      const feedTitle = async () => /<title>([^<]*)<\/title>/.exec((await other.app.inject({ url: '/rss.xml' })).body)?.[1];
      // With a session cookie the response cache neither serves nor keeps it: the process's own copy of the settings answers.
      const manifestName = async () => (await other.app.inject({ url: '/manifest.webmanifest', headers: { cookie: admin.cookie } })).json<{ name: string }>().name;
      // The other process reads the settings once and caches its feed.
      expect(await feedTitle()).toBe('Blogging Site');
      expect(await manifestName()).toBe('Blogging Site');

      expect((await saveSettings(t, admin, settingsWith({ siteName: 'Field Notes' }))).statusCode).toBe(200);
      await vi.waitFor(async () => expect(await feedTitle()).toBe('Field Notes'), { timeout: 5_000, interval: 20 });
      expect(await manifestName()).toBe('Field Notes');
    } finally {
      await other.close();
    }
  });
});
