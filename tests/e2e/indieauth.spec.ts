import { createHash, randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, signUpVerified, test } from './support/fixtures';

/** An app as the IndieAuth Living Standard describes it; its callback is answered by the test itself. */
const CLIENT_ID = 'http://127.0.0.1:9/app/';
const REDIRECT_URI = 'http://127.0.0.1:9/app/callback';

test.describe('IndieAuth (issue 60)', () => {
  test("an app asks on the consent screen, 'Allow' returns a code, the token shows in Settings' 'Apps' and is revoked there; axe passes", async ({ page, context }) => {
    await signUpVerified(context);
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const query = new URLSearchParams({ response_type: 'code', client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, state: 'st4te', code_challenge: challenge, code_challenge_method: 'S256', scope: 'create media' });
    let callback: URL | undefined;
    await page.route(`${REDIRECT_URI}**`, async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Back in the app</title>' });
    });

    await page.goto(`/indieauth/authorize?${query}`);
    await expect(page.getByRole('heading', { name: 'Allow an app?' })).toBeVisible();
    // The app's page is on a private address: it is not fetched, and the app is named by its host.
    await expect(page.getByText('127.0.0.1:9', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Publish new blogs as you (create)')).toBeChecked();
    await expect(page.getByLabel('Upload images (media)')).toBeChecked();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect(page).toHaveTitle('Back in the app');
    expect(callback?.searchParams.get('state')).toBe('st4te');
    const code = callback?.searchParams.get('code');
    expect(code).toBeTruthy();

    const token = await context.request.post('/indieauth/token', { form: { grant_type: 'authorization_code', code: code!, client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, code_verifier: verifier } });
    expect(token.status(), await token.text()).toBe(200);
    expect(await token.json()).toMatchObject({ token_type: 'Bearer', scope: 'create media' });

    await page.goto('/settings');
    const apps = page.getByRole('list', { name: 'Apps that may act for you' });
    await expect(apps.getByRole('listitem')).toHaveCount(1);
    await expect(apps).toContainText('create, media');
    await apps.getByRole('button', { name: 'Revoke 127.0.0.1:9' }).click();
    await expect(page.getByText('No apps.')).toBeVisible();
  });
});
