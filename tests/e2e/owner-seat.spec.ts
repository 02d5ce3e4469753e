import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { solidPng } from '../../src/server/testing/image-fixtures';
import { DEFAULT_PASSWORD, expect, test, uniqueEmail } from './support/fixtures';
import { hydrated, signUpConfirmed, useOwnServer } from './support/own-server';
import { acceptInvitation, invite } from './support/staff';

/**
 * The owner's seat (issue 44), on a server of the spec's own: a fresh site whose first account is
 * its owner, who names it, gives it a logo, a colour and a link, then invites an editor and a
 * contributor; the contributor submits a draft, and the editor publishes it from the review mail.
 * (The shared e2e server's specs read 'Blogging Site' and sign up freely: they must never see this.)
 */
test.describe('the owner’s seat', () => {
  const server = useOwnServer();
  const signUp = (context: BrowserContext, email: string) => signUpConfirmed(server, context, email, DEFAULT_PASSWORD);

  const newContext = (browser: Browser) => browser.newContext({ baseURL: server.baseURL });

  async function expectNoAxeViolations(page: Page) {
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  }

  test('an owner names the site, gives it a logo, a colour and a link, and invites an editor who publishes a contributor’s draft', async ({ browser }) => {
    test.setTimeout(120_000);
    const ownerContext = await newContext(browser);
    const owner = await ownerContext.newPage();
    await signUp(ownerContext, uniqueEmail('owner'));
    await hydrated(owner, '/settings');
    await expect(owner.getByText("You are this site's owner")).toBeVisible();

    // The More menu has the site's admin for the owner.
    await owner.getByRole('button', { name: 'More' }).click();
    await owner.getByRole('link', { name: 'Site admin' }).click();
    await expect(owner.getByRole('heading', { level: 1, name: 'Site admin' })).toBeVisible();
    await expect(owner.getByLabel('Site name')).toHaveValue('Blogging Site');
    await expectNoAxeViolations(owner);
    // By keyboard alone: from the first field, Tab goes through the form to Save.
    const save = owner.getByRole('button', { name: 'Save', exact: true });
    await owner.getByLabel('Site name').focus();
    for (let presses = 0; presses < 40 && !(await save.evaluate((button) => button === document.activeElement)); presses++) await owner.keyboard.press('Tab');
    await expect(save).toBeFocused();

    await owner.getByLabel('Site name').fill('Harbour Notes');
    await owner.getByLabel('Logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await solidPng(240, 80, '#1f4e79') });
    // A colour white text cannot be read on is refused, in words.
    await owner.getByRole('textbox', { name: 'Accent colour' }).fill('#ffdd00');
    await owner.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(owner.getByRole('alert')).toContainText(/contrast/i);
    await owner.getByRole('textbox', { name: 'Accent colour' }).fill('#1f4e79');
    await owner.getByRole('button', { name: 'Add a link' }).click();
    await owner.getByLabel('Link 1 label').fill('Topics');
    await owner.getByLabel('Link 1 URL').fill('/tags');
    await save.focus();
    await owner.keyboard.press('Enter');
    await expect(owner.getByRole('status').filter({ hasText: 'The site’s settings are saved.' })).toBeVisible();

    // Every page, for every reader, from the next request on.
    const readerContext = await newContext(browser);
    const reader = await readerContext.newPage();
    await hydrated(reader, '/');
    const navbar = reader.getByRole('navigation').first();
    await expect(navbar.getByRole('link', { name: /Harbour Notes/ })).toBeVisible();
    await expect(navbar.locator('img')).toHaveAttribute('src', /.+/);
    await expect(navbar.getByRole('link', { name: 'Topics' })).toHaveAttribute('href', '/tags');
    await expect(reader).toHaveTitle(/Harbour Notes/);
    expect(await reader.locator('#site-accent').textContent()).toContain('#1f4e79');

    // The owner invites an editor and a contributor.
    const editorEmail = uniqueEmail('editor');
    const contributorEmail = uniqueEmail('contributor');
    await hydrated(owner, '/admin/people');
    await invite(owner, editorEmail, 'Editor');
    await invite(owner, contributorEmail, 'Contributor');
    await expectNoAxeViolations(owner);

    const editor = await acceptInvitation(server, browser, editorEmail);
    const contributor = await acceptInvitation(server, browser, contributorEmail);

    // The contributor writes a draft and submits it for review: no button publishes it.
    await hydrated(contributor, '/create');
    await contributor.getByLabel('Title', { exact: true }).fill('Notes from the harbour wall');
    await contributor.getByLabel('Content').fill('The tide came in twice today.');
    await expect(contributor.getByRole('button', { name: 'Submit', exact: true })).toHaveCount(0);
    await contributor.getByRole('button', { name: 'Submit for review' }).click();
    const dialog = contributor.getByRole('dialog');
    await expect(dialog).toContainText('Submitted for review');
    await dialog.getByRole('button', { name: 'Okay' }).click();

    // The editor publishes it from the review mail's link.
    const review = await server.waitForMail(editorEmail, /review/i);
    const editLink = review.links.find((each) => each.includes('/edit?id='))!;
    const blogId = new URL(editLink).searchParams.get('id')!;
    expect((await readerContext.request.get(`/api/blogs/${blogId}`)).status()).toBe(404);
    await hydrated(editor, editLink);
    await editor.getByRole('button', { name: 'Publish', exact: true }).click();
    const published = editor.getByRole('dialog');
    await expect(published).toContainText('Blog Published!');
    await published.getByRole('button', { name: 'Okay' }).click();

    await hydrated(reader, `/viewBlog?id=${blogId}`);
    await expect(reader.getByRole('heading', { name: 'Notes from the harbour wall' })).toBeVisible();

    for (const context of [ownerContext, readerContext, editor.context(), contributor.context()]) await context.close();
  });
});
