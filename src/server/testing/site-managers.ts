import type { Role } from '../../shared/role-schema.js';
import type { SiteSettings } from '../../shared/site-settings-schema.js';
import { SETTINGS_DEFAULTS } from '../core/site-settings.js';
import { TEST_PUBLIC_URL, type TestApp } from './test-app.js';
import type { TestUser } from './test-users.js';

/** Gives a signed-up test user a role (an administrator manages the site: `/admin`). */
export async function giveRole(t: TestApp, user: TestUser, role: Role): Promise<void> {
  await t.database.db.updateTable('user').set({ role }).where('id', '=', user.id).execute();
}

/** The settings a fresh test site reads, changed by `changes`: a whole body for `PUT /api/admin/settings`. */
export function settingsWith(changes: Partial<SiteSettings> = {}): SiteSettings {
  return {
    siteName: 'Blogging Site',
    ...SETTINGS_DEFAULTS,
    ...changes,
  };
}

/** `PUT /api/admin/settings` as `user`. */
export function saveSettings(t: Pick<TestApp, 'app'>, user: TestUser | undefined, settings: unknown) {
  return t.app.inject({
    method: 'PUT',
    url: '/api/admin/settings',
    headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}) },
    payload: settings as object,
  });
}
