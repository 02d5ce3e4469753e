import { describe, expect, it } from 'vitest';
import { contrastRatio } from '../../shared/colour-contrast.js';
import type { SiteSettingsAnswer } from '../../shared/site-settings-form.js';
import { solidPng } from '../testing/image-fixtures.js';
import { multipart } from '../testing/multipart.js';
import { giveRole, saveSettings, settingsWith } from '../testing/site-managers.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { useSignedUpUsers, type TestUser } from '../testing/test-users.js';

describe('WCAG contrast', () => {
  it('matches the published ratios', () => {
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#0d6efd', '#ffffff')).toBeCloseTo(4.5, 1);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });
});

describe('the site settings API (issue 44)', () => {
  const t = useTestApp();
  const { admin, author } = useSignedUpUsers(t, ['admin', 'author']);

  const asAdmin = async () => {
    await giveRole(t, admin, 'administrator');
    return admin;
  };
  const upload = async (user: TestUser, kind: 'logo' | 'icon', data: Buffer, filename = `${kind}.png`) => {
    const form = await multipart({}, { data, filename, type: 'image/png' });
    return t.app.inject({ method: 'POST', url: `/api/admin/settings/${kind}`, headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie, ...form.headers }, payload: form.payload });
  };

  it('answers 404 to everyone who may not manage the site, signed in or not', async () => {
    expect((await t.app.inject({ url: '/api/admin/settings' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/admin/settings', headers: { cookie: author.cookie } })).statusCode).toBe(404);
    const put = await saveSettings(t, author, settingsWith({ siteName: 'Taken over' }));
    expect(put.statusCode).toBe(404);
    expect(put.json()).toEqual({ error: 'NOT_FOUND', message: expect.any(String) });
    expect((await upload(author, 'logo', await solidPng(40, 40))).statusCode).toBe(404);
  });

  it('reads the seeds on a fresh site, saves, and writes the before and after to the audit log', async () => {
    const user = await asAdmin();
    const fresh = await t.app.inject({ url: '/api/admin/settings', headers: { cookie: user.cookie } });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json<SiteSettingsAnswer>().settings).toEqual(settingsWith());

    const wanted = settingsWith({ siteName: 'Field Notes', description: 'Notes from the field.', accentColour: '#1D4ED8', navigation: [{ label: 'Guide', url: '/about' }], footerText: 'Made in Leeds.', defaultRole: 'contributor', registration: 'invitation', reviewNewBlogs: true });
    const saved = await saveSettings(t, user, wanted);
    expect(saved.statusCode).toBe(200);
    expect(saved.json<SiteSettingsAnswer>().settings).toEqual({ ...wanted, accentColour: '#1d4ed8' });
    const again = await t.app.inject({ url: '/api/admin/settings', headers: { cookie: user.cookie } });
    expect(again.json<SiteSettingsAnswer>().settings.siteName).toBe('Field Notes');

    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'settings.update').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor_id: user.id, actor_email: user.email, subject: 'site' });
    expect(audit.before).toMatchObject({ siteName: 'Blogging Site', registration: 'open' });
    expect(audit.after).toMatchObject({ siteName: 'Field Notes', registration: 'invitation', reviewNewBlogs: true });
  });

  it('refuses bad input with the API’s error shape, and an accent colour white text cannot be read on', async () => {
    const user = await asAdmin();
    const auditRows = async () => (await t.database.db.selectFrom('audit_log').select('id').execute()).length;
    const before = await auditRows();

    const pale = await saveSettings(t, user, settingsWith({ accentColour: '#ffd700' }));
    expect(pale.statusCode).toBe(400);
    expect(pale.json()).toEqual({ error: 'BAD_REQUEST', message: expect.stringMatching(/accent colour #ffd700 is too light.*4\.5:1/) });
    const grey = await saveSettings(t, user, settingsWith({ accentColour: '#777777' }));
    expect(grey.statusCode).toBe(400);

    const cases: Array<[unknown, RegExp]> = [
      [settingsWith({ siteName: '  ' }), /Add a site name/],
      [settingsWith({ accentColour: 'blue' }), /colour like #0d6efd/],
      [settingsWith({ navigation: [{ label: 'Bad', url: 'javascript:alert(1)' }] }), /path on the site/],
      [settingsWith({ defaultRole: 'owner' as never }), /./],
      [settingsWith({ registration: 'sometimes' as never }), /./],
      [{ siteName: 'Half' }, /./],
    ];
    for (const [body, message] of cases) {
      const response = await saveSettings(t, user, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({ error: 'BAD_REQUEST', message: expect.stringMatching(message) });
    }
    // Issue 56: the first four passed the old "path on this site" check, then took every page down.
    for (const url of ['/\\evil.example/', '/\t/evil.example', '/\n/evil.example', '/\\\\evil.example', '//evil.example', 'javascript:alert(1)', 'data:text/html,hi']) {
      const response = await saveSettings(t, user, settingsWith({ navigation: [{ label: 'Guide', url: '/about' }, { label: 'Shop', url }] }));
      expect(response.statusCode, JSON.stringify(url)).toBe(400);
      expect(response.json()).toEqual({ error: 'BAD_REQUEST', message: expect.stringContaining(`The navigation link “Shop” (${JSON.stringify(url)}) is neither a path on the site`) });
    }
    // A logo the uploads did not keep is refused too.
    const stranger = await saveSettings(t, user, settingsWith({ logoImageId: 'blogs/site-logo-site-1-deadbeef.webp' }));
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().message).toMatch(/^Logo:/);
    expect(await auditRows()).toBe(before);
  });

  it('keeps a logo and an icon through the image pipeline, and refuses what is not an image', async () => {
    const user = await asAdmin();
    const logo = await upload(user, 'logo', await solidPng(300, 80, '#204060'));
    expect(logo.statusCode).toBe(201);
    const { id: logoId, url: logoUrl } = logo.json<{ id: string; url: string }>();
    expect(logoId).toMatch(/^blogs\/site-logo-.*\.webp$/);
    // Decoded and re-encoded: what is kept is a WebP, whatever was sent.
    const kept = await t.app.inject({ url: logoUrl });
    expect(kept.statusCode).toBe(200);
    expect(kept.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');

    const icon = await upload(user, 'icon', await solidPng(600, 600, '#802020'));
    expect(icon.statusCode).toBe(201);
    const iconId = icon.json<{ id: string }>().id;

    const notImage = await upload(user, 'icon', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'icon.svg');
    expect(notImage.statusCode).toBe(415);
    expect(notImage.json()).toEqual({ error: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringMatching(/not an image/) });
    const tooBig = await upload(user, 'logo', Buffer.alloc(6 * 1024 * 1024, 1));
    expect(tooBig.statusCode).toBe(413);

    // An icon id given as the logo is refused: each kind names its own uploads.
    expect((await saveSettings(t, user, settingsWith({ logoImageId: iconId }))).statusCode).toBe(400);
    const saved = await saveSettings(t, user, settingsWith({ logoImageId: logoId, iconImageId: iconId }));
    expect(saved.statusCode).toBe(200);
    expect(saved.json<SiteSettingsAnswer>()).toMatchObject({ logoUrl, iconUrl: expect.stringMatching(/^\/site-icon\/64\.png\?v=/) });

    const manifest = await t.app.inject({ url: '/manifest.webmanifest' });
    const icons = manifest.json<{ icons: Array<{ src: string; sizes: string }> }>().icons;
    expect(icons.map((each) => each.sizes)).toEqual(['192x192', '512x512']);
    for (const each of icons) {
      const png = await t.app.inject({ url: each.src });
      expect(png.statusCode).toBe(200);
      expect(png.headers['content-type']).toBe('image/png');
      const { default: sharp } = await import('sharp');
      const size = await sharp(png.rawPayload).metadata();
      expect(`${size.width}x${size.height}`).toBe(each.sizes);
    }
    expect((await t.app.inject({ url: '/site-icon/100.png' })).statusCode).toBe(404);
  });
});
