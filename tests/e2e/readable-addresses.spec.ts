import type { Browser } from '@playwright/test';
import { DEFAULT_PASSWORD, expect, submitNewBlog, test, uniqueEmail } from './support/fixtures';
import { hydrated, signUpConfirmed, useOwnServer } from './support/own-server';

/**
 * Readable addresses (issue 58), on a server of the spec's own (its titles must not meet the shared
 * server's): a blog opens at /blog/<slug> with scripts on and off, names it as canonical from both
 * of its addresses, and after a new title its old address answers 301 to the new one.
 */
test.describe('readable addresses', () => {
  const server = useOwnServer();

  const openAs = async (browser: Browser, javaScriptEnabled: boolean, path: string) => {
    const context = await browser.newContext({ baseURL: server.baseURL, javaScriptEnabled });
    const page = await context.newPage();
    // React reports a hydration mismatch on the console: the page must hydrate without one.
    const errors: string[] = [];
    page.on('console', (message) => {
      // (The unknown address's own 404 is reported as a resource that failed to load: expected.)
      if ((message.type() === 'error' && !message.text().startsWith('Failed to load resource')) || /hydrat/i.test(message.text())) errors.push(message.text());
    });
    if (javaScriptEnabled) await hydrated(page, path);
    else await page.goto(path);
    expect(errors).toEqual([]);
    return page;
  };

  test('a blog at /blog/<slug>, its canonical link from both addresses, and a 301 after a new title', async ({ browser }) => {
    test.setTimeout(120_000);
    const writerContext = await browser.newContext({ baseURL: server.baseURL });
    await signUpConfirmed(server, writerContext, uniqueEmail('writer'), DEFAULT_PASSWORD);
    const writer = await writerContext.newPage();
    await hydrated(writer, '/create');
    await writer.getByLabel('Title', { exact: true }).fill('Harbour wall repairs');
    await writer.getByLabel('Content').fill('The **east wall** is mended.');
    const id = await submitNewBlog(writer);
    expect(((await (await writerContext.request.get(`/api/blogs/${id}`)).json()) as { slug: string }).slug).toBe('harbour-wall-repairs');

    for (const javaScriptEnabled of [false, true]) {
      const page = await openAs(browser, javaScriptEnabled, '/blog/harbour-wall-repairs');
      await expect(page.getByRole('heading', { level: 1, name: 'Harbour wall repairs' })).toBeVisible();
      await expect(page.locator('.blog-body strong')).toHaveText('east wall');
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${server.baseURL}/blog/harbour-wall-repairs`);
      await page.goto(`/viewBlog?id=${id}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Harbour wall repairs' })).toBeVisible();
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${server.baseURL}/blog/harbour-wall-repairs`);
      await page.context().close();
    }

    // A new title, from the editor: the address moves, and the old one answers 301.
    await hydrated(writer, `/edit?id=${id}`);
    await writer.getByLabel('Title', { exact: true }).fill('Harbour wall repaired');
    await writer.getByRole('button', { name: 'Update' }).click();
    const updated = writer.getByRole('dialog');
    await expect(updated).toContainText('Blog Updated!');
    await updated.getByRole('button', { name: 'Okay' }).click();
    const moved = await writerContext.request.get('/blog/harbour-wall-repairs', { maxRedirects: 0 });
    expect(moved.status()).toBe(301);
    expect(moved.headers().location).toBe('/blog/harbour-wall-repaired');

    for (const javaScriptEnabled of [false, true]) {
      const reader = await openAs(browser, javaScriptEnabled, '/blog/harbour-wall-repairs');
      await expect(reader).toHaveURL(`${server.baseURL}/blog/harbour-wall-repaired`);
      await expect(reader.getByRole('heading', { level: 1, name: 'Harbour wall repaired' })).toBeVisible();
      await expect(reader.locator('link[rel="canonical"]')).toHaveAttribute('href', `${server.baseURL}/blog/harbour-wall-repaired`);
      await reader.context().close();
    }
    const unknown = await openAs(browser, false, '/blog/no-such-wall');
    await expect(unknown.getByText('This blog does not exist')).toBeVisible();
    await unknown.context().close();
  });
});
