import { describe, expect, it } from 'vitest';
import { get, post, waitForMail } from '../testing/auth-test-kit.js';
import { giveRole, saveSettings, settingsWith } from '../testing/site-managers.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { keyOfUri, totp } from '../testing/totp.js';
import { authHeaders, randomIp, signUpUser, uniqueEmail, useSignedUpUsers } from '../testing/test-users.js';
import { withIssuer } from '../auth/second-factor.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('the authenticator’s URI names the site it is given', () => {
  it('replaces the issuer in the label and the parameter, keeping the account and the secret', () => {
    const uri = 'otpauth://totp/Blogging%20Site:ann%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Blogging+Site&digits=6&period=30';
    const renamed = new URL(withIssuer(uri, 'Field: Notes & Co'));
    expect(renamed.pathname).toBe(`/${encodeURIComponent('Field: Notes & Co')}:ann%40example.com`);
    expect(Object.fromEntries(renamed.searchParams)).toEqual({ secret: 'JBSWY3DPEHPK3PXP', issuer: 'Field: Notes & Co', digits: '6', period: '30' });
  });
});

// Issue 57: the site's name comes only from its settings (`SITE_NAME` seeds a fresh site); the pages,
// feeds and NodeInfo are site-settings-propagation.test.ts's, these are the rest.
describe('a renamed site is named by its new name in mail and second factors', () => {
  const t = useTestApp();
  const { admin } = useSignedUpUsers(t, ['admin']);

  it('the invitation, the new-browser and account-change mails, the authenticator’s issuer and the passkey’s relying party', { timeout: 60_000 }, async () => {
    await giveRole(t, admin, 'administrator');
    expect((await saveSettings(t, admin, settingsWith({ siteName: 'Field Notes' }))).statusCode).toBe(200);

    const invited = uniqueEmail('invited');
    const invitation = await t.app.inject({ method: 'POST', url: '/api/admin/invitations', headers: { origin: TEST_PUBLIC_URL, cookie: admin.cookie }, remoteAddress: randomIp(), payload: { email: invited, role: 'contributor' } });
    expect(invitation.statusCode, invitation.body).toBe(201);
    const invitationMail = await waitForMail(t, invited, /invited/);
    expect(invitationMail.text).toContain('invites you to join Field Notes as');
    // MAIL_FROM gives the address only (the default): the sender is named by the saved name.
    expect(invitationMail.headers.from).toBe('Field Notes <no-reply@localhost>');

    const user = await signUpUser(t.app);
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers: { ...authHeaders, 'user-agent': CHROME }, remoteAddress: randomIp(), payload: { email: user.email, password: user.password } });
    expect(again.statusCode, again.body).toBe(200);
    const newBrowser = await waitForMail(t, user.email, /new sign-in/);
    expect(newBrowser.subject).toBe('A new sign-in to your Field Notes account');
    expect(newBrowser.headers.from).toBe('Field Notes <no-reply@localhost>');

    const enabled = await post(t.app, '/api/auth/two-factor/enable', { password: user.password }, { cookie: user.cookie });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const { totpURI, totpQrSvg } = enabled.json<{ totpURI: string; totpQrSvg: string }>();
    expect(new URL(totpURI).searchParams.get('issuer')).toBe('Field Notes');
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Field%20Notes:/);
    expect(totpQrSvg).toMatch(/^<svg/);
    const confirmed = await post(t.app, '/api/auth/two-factor/verify-totp', { code: totp(keyOfUri(totpURI), Math.floor(Date.now() / 1000)) }, { cookie: user.cookie });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await waitForMail(t, user.email, /turned on/)).subject).toBe('Two-factor authentication was turned on for your Field Notes account');
    const cookie = confirmed.cookie || user.cookie;

    const shown = await post(t.app, '/api/auth/two-factor/get-totp-uri', { password: user.password }, { cookie });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json<{ totpURI: string }>().totpURI).toBe(totpURI);

    const options = await get(t.app, '/api/auth/passkey/generate-register-options', { cookie });
    expect(options.statusCode, options.body).toBe(200);
    expect(options.json<{ rp: { name: string; id: string } }>().rp).toEqual({ name: 'Field Notes', id: new URL(TEST_PUBLIC_URL).hostname });
  });
});

describe('the sender of every mail', () => {
  const t = useTestApp();
  const { admin } = useSignedUpUsers(t, ['admin']);

  it('is named by the saved name at the moment the mail is made, past a rename, quoted when the name needs it', { timeout: 30_000 }, async () => {
    await giveRole(t, admin, 'administrator');
    const requestLink = async (email: string) => {
      const response = await post(t.app, '/api/auth/sign-in/magic-link', { email });
      expect(response.statusCode, response.body).toBe(200);
      return waitForMail(t, email, /sign-in link/);
    };
    expect((await requestLink(uniqueEmail('before'))).headers.from).toBe('Blogging Site <no-reply@localhost>');
    expect((await saveSettings(t, admin, settingsWith({ siteName: 'Harbour Notes, Ltd.' }))).statusCode).toBe(200);
    const after = await requestLink(uniqueEmail('after'));
    expect(after.headers.from).toBe('"Harbour Notes, Ltd." <no-reply@localhost>');
    // Another feature's mail (a subscription's confirmation) too.
    const subscriber = uniqueEmail('subscriber');
    const subscribed = await post(t.app, '/api/subscriptions', { email: subscriber });
    expect(subscribed.statusCode, subscribed.body).toBeLessThan(300);
    expect((await waitForMail(t, subscriber, /./)).headers.from).toBe('"Harbour Notes, Ltd." <no-reply@localhost>');
  });
});

describe('a sender named in MAIL_FROM', () => {
  const t = useTestApp({ MAIL_FROM: 'The Harbour Desk <desk@harbour.example>' });
  const { admin } = useSignedUpUsers(t, ['admin']);

  it('keeps the operator’s name whatever the site is called', async () => {
    await giveRole(t, admin, 'administrator');
    expect((await saveSettings(t, admin, settingsWith({ siteName: 'Field Notes' }))).statusCode).toBe(200);
    const email = uniqueEmail('reader');
    expect((await post(t.app, '/api/auth/sign-in/magic-link', { email })).statusCode).toBe(200);
    expect((await waitForMail(t, email, /sign-in link/)).headers.from).toBe('The Harbour Desk <desk@harbour.example>');
  });
});
