import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { messages } from '../../src/shared/messages';
import { DEFAULT_PASSWORD, expect, test, uniqueEmail } from './support/fixtures';
import { hydrated, signUpConfirmed, useOwnServer } from './support/own-server';

/**
 * /admin in sections (issue 59), on a server of its own (the owner renames the site): each section
 * at its own address with one navigation, at desktop and phone width, axe clean and never wider
 * than the screen; a reader gets the 404; the audit log says who and what in words, never an id.
 */
test.describe('/admin in sections', () => {
  const server = useOwnServer();
  const SECTIONS = [
    { path: '/admin/site', heading: 'Site' },
    { path: '/admin/pages', heading: 'Pages' },
    { path: '/admin/people', heading: 'People' },
    { path: '/admin/posts', heading: 'Posts' },
    { path: '/admin/subscribers', heading: 'Subscribers' },
    { path: '/admin/integrations', heading: 'Integrations' },
    { path: '/admin/audit-log', heading: 'Audit log' },
    { path: '/admin/outbox', heading: 'Outbox' },
  ];
  const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-/;

  async function expectFitsAndAxeClean(page: Page) {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  }

  test('each section at its own address, at 1280 × 800 and 390 × 844; a reader gets 404; the audit log in words', async ({ browser }) => {
    test.setTimeout(180_000);
    const ownerContext = await browser.newContext({ baseURL: server.baseURL });
    const ownerEmail = uniqueEmail('owner');
    await signUpConfirmed(server, ownerContext, ownerEmail, DEFAULT_PASSWORD);
    const owner = await ownerContext.newPage();

    // Something for the audit log: the site renamed, an editor invited.
    await hydrated(owner, '/admin');
    await expect(owner.getByRole('heading', { level: 2, name: 'Site' })).toBeVisible();
    await expect(owner.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Site' })).toHaveAttribute('aria-current', 'page');
    await owner.getByLabel('Site name', { exact: true }).fill('Harbour Notes');
    await owner.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(owner.getByRole('status').filter({ hasText: 'The site’s settings are saved.' })).toBeVisible();
    const editorEmail = uniqueEmail('editor');
    await owner.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'People' }).click();
    await expect(owner).toHaveURL(/\/admin\/people$/);
    await owner.getByLabel('Email address', { exact: true }).fill(editorEmail);
    await owner.getByLabel('Role', { exact: true }).selectOption({ label: 'Editor' });
    await owner.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect(owner.getByRole('button', { name: `Revoke invitation for ${editorEmail}` })).toBeVisible();
    // An integration (issue 60): its keys in Ghost's shapes, the Admin API key shown once, made anew after a confirmation.
    await owner.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Integrations' }).click();
    await expect(owner).toHaveURL(/\/admin\/integrations$/);
    const addIntegration = owner.getByRole('form', { name: 'Add integration' });
    await addIntegration.getByLabel('Name', { exact: true }).fill('Ulysses');
    await addIntegration.getByRole('button', { name: 'Add integration' }).click();
    const shownOnce = owner.getByRole('status').filter({ hasText: 'shown this once' }).locator('code');
    await expect(shownOnce).toHaveText(/^[0-9a-f]{24}:[0-9a-f]{64}$/);
    const firstAdminKey = (await shownOnce.textContent())!;
    const integration = owner.getByRole('list', { name: 'Integrations' }).getByRole('listitem');
    await expect(integration.locator('dd code').first()).toHaveText(/^[0-9a-f]{26}$/);
    await expect(integration).toContainText(`${firstAdminKey.split(':')[0]}:••••••••`);
    await owner.getByRole('button', { name: 'Regenerate keys of Ulysses' }).click();
    await owner.getByRole('dialog').getByRole('button', { name: 'Regenerate', exact: true }).click();
    await expect(shownOnce).toHaveText(/^[0-9a-f]{24}:[0-9a-f]{64}$/);
    await expect(shownOnce).not.toHaveText(firstAdminKey);
    expect(await integration.textContent()).not.toContain(firstAdminKey.split(':')[1]);

    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      await test.step(`${viewport.width} × ${viewport.height}`, async () => {
        await owner.setViewportSize(viewport);
        for (const section of SECTIONS) {
          await hydrated(owner, section.path);
          await expect(owner.getByRole('heading', { level: 2, name: section.heading, exact: true })).toBeVisible();
          const nav = owner.getByRole('navigation', { name: 'Admin sections' });
          await expect(nav.getByRole('link', { name: section.heading, exact: true })).toHaveAttribute('aria-current', 'page');
          await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
          if (section.heading === 'Audit log') await expect(owner.getByRole('table', { name: 'Audit log, newest first' })).toBeVisible();
          await expectFitsAndAxeClean(owner);
        }
      });
    }

    // The audit log in words: the invited address, the owner's name, the setting changed; no id.
    await owner.setViewportSize({ width: 1280, height: 800 });
    await hydrated(owner, '/admin/audit-log');
    const log = owner.getByRole('table', { name: 'Audit log, newest first' });
    const invitation = log.getByRole('row').filter({ hasText: 'invitation.create' });
    await expect(invitation).toContainText(editorEmail);
    await expect(invitation).toContainText(ownerEmail.split('@')[0]!);
    await expect(invitation).toContainText('role: — → editor');
    await expect(log.getByRole('row').filter({ hasText: 'settings.update' })).toContainText('siteName: Blogging Site → Harbour Notes');
    await expect(log.getByRole('row').filter({ hasText: 'integration.regenerate' })).toContainText('Integration ‘Ulysses’');
    expect(await log.textContent()).not.toMatch(UUID);
    // The e-mail stays on one line at desktop width.
    const address = invitation.getByText(ownerEmail, { exact: true });
    const box = await address.boundingBox();
    const lineHeight = await address.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
    expect(box!.height).toBeLessThan(lineHeight * 1.5);
    // The filter by kind.
    await owner.getByLabel('Kind').selectOption({ label: 'People' });
    await expect(log.getByRole('row').filter({ hasText: 'settings.update' })).toHaveCount(0);
    await expect(log.getByRole('row').filter({ hasText: 'invitation.create' })).toHaveCount(1);

    // A signed-in reader: the site's 404 for a section and for /admin.
    const readerContext = await browser.newContext({ baseURL: server.baseURL });
    await signUpConfirmed(server, readerContext, uniqueEmail('reader'), DEFAULT_PASSWORD);
    const reader = await readerContext.newPage();
    for (const path of ['/admin/site', '/admin']) {
      await hydrated(reader, path);
      await expect(reader.getByText(messages.notFoundPage)).toBeVisible();
      await expect(reader.getByRole('navigation', { name: 'Admin sections' })).toHaveCount(0);
    }
    // An address no section has: 404 for the owner too.
    await hydrated(owner, '/admin/nothing-here');
    await expect(owner.getByText(messages.notFoundPage)).toBeVisible();

    await ownerContext.close();
    await readerContext.close();
  });
});

/**
 * Posts' filters and row actions (issue 59's review), on a server of its own: the 'Author' filter
 * offers a writer whose blogs are not on the first page; 'Unpublish' and 'Publish' change the
 * status (the status routes), the row says so.
 */
test.describe('/admin/posts: every writer in the Author filter, Publish and Unpublish', () => {
  const server = useOwnServer();

  test('a writer off the first page is offered; filtering by them finds their blog; Unpublish, then Publish', async ({ browser }) => {
    test.setTimeout(120_000);
    const ownerContext = await browser.newContext({ baseURL: server.baseURL });
    await signUpConfirmed(server, ownerContext, uniqueEmail('owner'), DEFAULT_PASSWORD);
    const writerContext = await browser.newContext({ baseURL: server.baseURL });
    const writerEmail = uniqueEmail('early-writer');
    await signUpConfirmed(server, writerContext, writerEmail, DEFAULT_PASSWORD);
    const write = async (context: typeof ownerContext, fields: Record<string, string>) => {
      const response = await context.request.post('/api/blogs', { multipart: fields, headers: { origin: server.baseURL } });
      expect(response.status(), await response.text()).toBe(201);
    };
    const title = 'Written before the rush';
    await write(writerContext, { title, blog: 'Early words.' });
    for (let index = 0; index < 21; index += 1) await write(ownerContext, { title: `Rush ${index}`, blog: 'Later words.', status: 'draft' });

    const owner = await ownerContext.newPage();
    await hydrated(owner, '/admin/posts');
    const table = owner.getByRole('table', { name: 'Posts' });
    await expect(table.getByRole('row').filter({ hasText: 'Rush 20' })).toHaveCount(1);
    await expect(table.getByRole('row').filter({ hasText: title })).toHaveCount(0);
    const author = owner.getByLabel('Author', { exact: true });
    const option = author.locator('option', { hasText: writerEmail });
    await expect(option).toHaveCount(1);
    await author.selectOption((await option.getAttribute('value'))!);
    const row = table.getByRole('row').filter({ hasText: title });
    await expect(row).toHaveCount(1);
    await expect(table.getByRole('row')).toHaveCount(2);

    await row.getByRole('button', { name: `Unpublish ${title}` }).click();
    await expect(row.getByText('Draft', { exact: true })).toBeVisible();
    await row.getByRole('button', { name: `Publish ${title}` }).click();
    await expect(row.getByText('Published', { exact: true })).toBeVisible();
    await expect(row.getByRole('link', { name: title, exact: true })).toBeVisible();

    await ownerContext.close();
    await writerContext.close();
  });
});
