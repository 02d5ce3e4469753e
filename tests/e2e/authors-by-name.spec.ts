import { DEFAULT_PASSWORD, expect, test, uniqueEmail } from './support/fixtures';
import { hydrated, signUpConfirmed, useOwnServer } from './support/own-server';

/**
 * 'Show authors by' (issue 58), on a server of the spec's own (the shared server's specs read
 * 'Author: <e-mail>'): the owner picks 'Name' in /admin and saves; a signed-out reader's home page
 * then names the author by display name on its card, with no e-mail anywhere on the page.
 */
test.describe('authors shown by name', () => {
  const server = useOwnServer();

  test("the owner picks 'Name'; the home page's card says 'Author: <name>' and no e-mail", async ({ browser }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail('owner');
    const ownerContext = await browser.newContext({ baseURL: server.baseURL });
    await signUpConfirmed(server, ownerContext, email, DEFAULT_PASSWORD);
    const origin = { origin: server.baseURL };
    const profile = await ownerContext.request.put('/api/account/profile', { data: { handle: `maya_${Date.now() % 100000}`, displayName: 'Maya Harbour', bio: '' }, headers: origin });
    expect(profile.status(), await profile.text()).toBe(200);
    const created = await ownerContext.request.post('/api/blogs', { multipart: { title: 'Tide tables', blog: 'High water at noon.' }, headers: origin });
    expect(created.status(), await created.text()).toBe(201);

    const readerContext = await browser.newContext({ baseURL: server.baseURL });
    const reader = await readerContext.newPage();
    await hydrated(reader, '/');
    const card = reader.locator('.card').filter({ hasText: 'Tide tables' });
    await expect(card).toContainText(`Author: ${email}`);

    const owner = await ownerContext.newPage();
    await hydrated(owner, '/admin');
    await owner.getByLabel('Show authors by').selectOption({ label: 'Name' });
    await owner.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(owner.getByRole('status').filter({ hasText: 'The site’s settings are saved.' })).toBeVisible();

    for (const javaScriptEnabled of [true, false]) {
      const context = await browser.newContext({ baseURL: server.baseURL, javaScriptEnabled });
      const page = await context.newPage();
      if (javaScriptEnabled) await hydrated(page, '/');
      else await page.goto('/');
      await expect(page.locator('.card').filter({ hasText: 'Tide tables' })).toContainText('Author: Maya Harbour');
      expect(await page.content()).not.toContain(email);
      await context.close();
    }
  });
});
