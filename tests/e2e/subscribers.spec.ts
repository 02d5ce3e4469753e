import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { messages } from '../../src/shared/messages';
import { DEFAULT_PASSWORD, expect, test, uniqueEmail } from './support/fixtures';
import { hydrated, signUpConfirmed, useOwnServer } from './support/own-server';

const fixture = (name: string) => path.resolve('src/server/subscriptions/fixtures', name);

/**
 * /admin's Subscribers (issue 59), on a server of its own (its subscribers are the site's): the
 * owner imports a Ghost export (each address asked to confirm) and a Mailchimp one (already opted
 * in), imports the Ghost one again (nothing added), searches, removes one, exports the CSV; at
 * desktop and phone width, axe clean and nothing scrolling sideways.
 */
test.describe('the subscribers of the site', () => {
  const server = useOwnServer();

  async function checkLayout(page: Page) {
    // Named with their nodes, so that a failure says what was found.
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((each) => `${each.id}: ${each.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  }

  test('the owner imports Ghost’s and Mailchimp’s exports, sees what was skipped, removes one and exports the list', async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ baseURL: server.baseURL });
    const owner = await context.newPage();
    await signUpConfirmed(server, context, uniqueEmail('owner'), DEFAULT_PASSWORD);

    await hydrated(owner, '/admin/subscribers');
    const section = owner.getByRole('region', { name: 'Subscribers' });
    await expect(section.getByText('Nobody has subscribed yet.')).toBeVisible();
    await expect(section.getByRole('table', { name: 'Subscribers and fediverse followers per author' })).toBeVisible();
    await checkLayout(owner);

    const importForm = owner.getByRole('form', { name: 'Import CSV' });
    await importForm.getByLabel('CSV file').setInputFiles(fixture('ghost-members.csv'));
    await importForm.getByRole('button', { name: 'Import' }).click();
    const report = importForm.getByRole('status');
    await expect(report).toContainText('Imported 2 addresses from the column “email”, each sent the e-mail to confirm.');
    await expect(report).toContainText('Line 4: not-an-address: invalid address');
    await expect(report).toContainText('Line 5: bo@harbour.example: duplicate');
    await server.waitForMail('ann@harbour.example', /Confirm your subscription/);

    await importForm.getByLabel('CSV file').setInputFiles(fixture('mailchimp-subscribed.csv'));
    await importForm.getByLabel('These people already opted in').check();
    await importForm.getByRole('button', { name: 'Import' }).click();
    await expect(report).toContainText('Imported 2 addresses from the column “Email Address”, confirmed.');
    await expect(report).toContainText('Nothing was skipped.');

    await importForm.getByLabel('CSV file').setInputFiles(fixture('ghost-members.csv'));
    await importForm.getByRole('button', { name: 'Import' }).click();
    await expect(report).toContainText('Imported 0 addresses');
    await expect(report).toContainText('Line 2: ann@harbour.example: already subscribed');

    const list = section.getByRole('table', { name: 'E-mail subscriptions, newest first' });
    await expect(list.getByRole('row')).toHaveCount(5);
    await expect(list.getByRole('row', { name: /dee@harbour\.example/ })).toContainText('Confirmed');
    await expect(list.getByRole('row', { name: /ann@harbour\.example/ })).toContainText('Waiting');
    const counts = section.getByRole('table', { name: 'Subscribers and fediverse followers per author' });
    await expect(counts.getByRole('row', { name: /The whole site/ })).toHaveText(/The whole site\s*2\s*2/);

    await section.getByRole('searchbox', { name: 'Search subscribers' }).fill('harbour.example');
    await section.getByRole('button', { name: 'Search' }).click();
    await expect(list.getByRole('row')).toHaveCount(5);

    const download = owner.waitForEvent('download');
    await section.getByRole('link', { name: 'Export CSV' }).click();
    const csv = readFileSync((await (await download).path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('email,subscribed_to,since,status');
    expect(csv).toContain('dee@harbour.example,the whole site,');

    await list.getByRole('button', { name: 'Remove bo@harbour.example' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Remove this subscriber?' });
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect(list.getByRole('row', { name: /bo@harbour\.example/ })).toHaveCount(0);
    await expect(list.getByRole('row')).toHaveCount(4);
    // The dialog fades out: axe would read its half-transparent backdrop's colours.
    await expect(dialog).toBeHidden();
    await expect(owner.locator('.modal-backdrop')).toHaveCount(0);

    await owner.setViewportSize({ width: 390, height: 844 });
    await checkLayout(owner);
    await owner.setViewportSize({ width: 1280, height: 800 });
    await checkLayout(owner);
  });

  test('a signed-in reader gets the site’s 404, and the API’s', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: server.baseURL });
    await signUpConfirmed(server, context, uniqueEmail('owner-first'), DEFAULT_PASSWORD);
    const readerContext = await browser.newContext({ baseURL: server.baseURL });
    await signUpConfirmed(server, readerContext, uniqueEmail('reader'), DEFAULT_PASSWORD);
    const reader = await readerContext.newPage();
    // The page is the same shell for everyone (as all of /admin): the site's 404 in it, and no section.
    await hydrated(reader, '/admin/subscribers');
    await expect(reader.getByText(messages.notFoundPage)).toBeVisible();
    await expect(reader.getByRole('region', { name: 'Subscribers' })).toHaveCount(0);
    expect((await readerContext.request.get('/api/admin/subscribers')).status()).toBe(404);
  });
});
