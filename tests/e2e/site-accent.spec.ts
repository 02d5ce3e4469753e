import type { BrowserContext, Page } from '@playwright/test';
import { DEFAULT_PASSWORD, expect, test, uniqueEmail } from './support/fixtures';
import { signUpConfirmed, useOwnServer } from './support/own-server';

/**
 * The saved accent on every page as the server sends it (issue 58): the stylesheet's link comes
 * after the accent's `<style>` in the head, and once it won, every fresh page was Bootstrap's blue.
 * On a server of the spec's own: the shared server's specs read the theme's colours.
 */
const GREEN = '#1a7f37';
const GREEN_RGB = 'rgb(26, 127, 55)';
const BOOTSTRAP_BLUE = '#0d6efd';

test.describe('the accent colour', () => {
  const server = useOwnServer();
  const signUp = (context: BrowserContext, email: string) => signUpConfirmed(server, context, email, DEFAULT_PASSWORD);

  /** A fresh load of `path`; with scripts, until the app has hydrated (a focus starts a reading page's app). */
  async function load(page: Page, path: string, javaScriptEnabled: boolean) {
    await page.goto(path);
    if (!javaScriptEnabled) return;
    await page.evaluate(() => window.dispatchEvent(new FocusEvent('focusin')));
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  }

  const primary = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bs-primary').trim());
  const linkColour = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bs-link-color').trim());
  const background = (page: Page, selector: string) => page.locator(selector).first().evaluate((element) => getComputedStyle(element).backgroundColor);
  /** A primary button added to the page as it is, for a screen that draws none before its scripts run (/admin). */
  const probeButton = (page: Page) =>
    page.evaluate(() => {
      const button = document.createElement('button');
      button.className = 'btn btn-primary';
      button.id = 'accent-probe';
      button.textContent = 'Probe';
      document.querySelector('main')!.append(button);
      return '#accent-probe';
    });

  /** What the accent colours on a page: the variables, a primary button and (where there is one) the active pill. */
  async function expectAccent(page: Page, button: string, pill?: string) {
    expect(await primary(page)).toBe(GREEN);
    expect(await linkColour(page)).toBe(GREEN);
    expect(await background(page, button)).toBe(GREEN_RGB);
    if (pill) expect(await background(page, pill)).toBe(GREEN_RGB);
  }

  test('a saved green holds on /, a blog page and /admin, as they arrive and after their scripts ran', async ({ browser }) => {
    test.setTimeout(120_000);
    const ownerContext = await browser.newContext({ baseURL: server.baseURL });
    const owner = await ownerContext.newPage();
    await signUp(ownerContext, uniqueEmail('owner'));
    const created = await ownerContext.request.post('/api/blogs', { multipart: { title: 'Green harbour', blog: 'The wall is painted.' }, headers: { origin: server.baseURL } });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: string };

    // The theme's own blue until the owner chooses (a site whose owner changes nothing stays as it was).
    await load(owner, '/', true);
    expect(await primary(owner)).toBe(BOOTSTRAP_BLUE);
    expect((await ownerContext.request.get('/manifest.webmanifest').then((response) => response.json())).theme_color).toBe('#212529');

    await load(owner, '/admin', true);
    await owner.getByRole('textbox', { name: 'Accent colour' }).fill(GREEN);
    await owner.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(owner.getByRole('status').filter({ hasText: 'The site’s settings are saved.' })).toBeVisible();
    // The page the owner is on takes the colour at once.
    await expectAccent(owner, '.btn-primary');
    expect((await ownerContext.request.get('/manifest.webmanifest').then((response) => response.json())).theme_color).toBe(GREEN);

    const session = await ownerContext.storageState();
    for (const javaScriptEnabled of [false, true]) {
      await test.step(`scripts ${javaScriptEnabled ? 'on' : 'off'}`, async () => {
        const signedIn = await browser.newContext({ baseURL: server.baseURL, javaScriptEnabled, storageState: session });
        const anonymous = await browser.newContext({ baseURL: server.baseURL, javaScriptEnabled });
        const page = await signedIn.newPage();
        const reader = await anonymous.newPage();

        // The home page: a card's Read button and the active Top/New/Hot pill.
        await load(reader, '/', javaScriptEnabled);
        await expectAccent(reader, '.blog-card .btn-primary', '.nav-pills .nav-link.active');
        // The blog's page: its author's Edit button.
        await load(page, `/viewBlog?id=${id}`, javaScriptEnabled);
        await expect(page.getByRole('heading', { level: 1, name: 'Green harbour' })).toBeVisible();
        await expectAccent(page, 'main .btn-primary');
        // The admin page: the 'Site' box's Save (without scripts the screen says it is loading).
        await load(page, '/admin', javaScriptEnabled);
        if (javaScriptEnabled) await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeVisible();
        await expectAccent(page, javaScriptEnabled ? 'button.btn-primary[type=submit]' : await probeButton(page));

        await signedIn.close();
        await anonymous.close();
      });
    }
    await ownerContext.close();
  });
});
