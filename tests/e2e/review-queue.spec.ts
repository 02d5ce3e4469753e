import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { PostsPage } from '../../src/shared/posts-schema';
import { DEFAULT_PASSWORD, expect, test, uniqueEmail } from './support/fixtures';
import { hydrated, signUpConfirmed, useOwnServer } from './support/own-server';
import { acceptInvitation, invite } from './support/staff';

/**
 * The review queue (issue 59), on a server of its own: a contributor submits a draft; it is
 * 'Submitted for review' in their drafts and in Posts; an editor sends it back with a note; the
 * contributor is mailed the note, resubmits; the editor publishes it; the contributor is mailed
 * its address.
 */
test.describe('the review queue', () => {
  const server = useOwnServer();

  async function expectNoAxeViolations(page: Page) {
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  }

  async function okay(page: Page, text: string | RegExp) {
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(text);
    await dialog.getByRole('button', { name: 'Okay' }).click();
  }

  test('submit → listed → sent back with a note → mailed → resubmitted → published → mailed with its address', async ({ browser }) => {
    test.setTimeout(150_000);
    const ownerContext = await browser.newContext({ baseURL: server.baseURL });
    const owner = await ownerContext.newPage();
    await signUpConfirmed(server, ownerContext, uniqueEmail('owner'), DEFAULT_PASSWORD);
    const editorEmail = uniqueEmail('editor');
    const contributorEmail = uniqueEmail('contributor');
    await hydrated(owner, '/admin/people');
    await invite(owner, editorEmail, 'Editor');
    await invite(owner, contributorEmail, 'Contributor');
    const editor = await acceptInvitation(server, browser, editorEmail);
    const contributor = await acceptInvitation(server, browser, contributorEmail);

    // The contributor writes and submits: their drafts mark it.
    const title = 'Low water at the pier';
    await hydrated(contributor, '/create');
    await contributor.getByLabel('Title', { exact: true }).fill(title);
    await contributor.getByLabel('Content').fill('The boats sat on the mud till noon.');
    await contributor.getByRole('button', { name: 'Submit for review' }).click();
    await okay(contributor, 'Submitted for review');
    await expect(contributor).toHaveURL(/\/drafts$/);
    const draftItem = contributor.getByRole('listitem').filter({ hasText: title });
    await expect(draftItem).toContainText('Submitted for review');
    // 'All my blogs': the same status in words.
    await contributor.getByRole('link', { name: 'All my blogs' }).click();
    const ownRow = contributor.getByRole('row').filter({ hasText: title });
    await expect(ownRow).toContainText('Submitted for review');
    await expect(ownRow.getByRole('button', { name: `Publish ${title}` })).toHaveCount(0);
    await expectNoAxeViolations(contributor);

    // Posts lists it as submitted for the editor (through the API: /admin/posts is the sections' work).
    const listed = async () => (await (await editor.context().request.get('/api/posts?status=submitted')).json()) as PostsPage;
    const row = (await listed()).items.find((item) => item.title === title)!;
    expect(row).toMatchObject({ status: 'submitted', author: { email: contributorEmail }, actions: { edit: true, publish: true } });

    // The editor opens it from the review mail: who submitted it and when; sends it back with a note.
    const editLink = (await server.waitForMail(editorEmail, /review/i)).links.find((each) => each.includes('/edit?id='))!;
    await hydrated(editor, editLink);
    await expect(editor.getByText(`Submitted for review by`)).toContainText(contributorEmail);
    await expectNoAxeViolations(editor);
    await editor.getByRole('button', { name: 'Send back' }).click();
    await expect(editor.getByText('Write a note')).toBeVisible();
    await editor.getByLabel('Note', { exact: true }).fill('Say which pier, please.');
    await editor.getByRole('button', { name: 'Send back' }).click();
    await okay(editor, 'sent back');
    const note = await server.waitForMail(contributorEmail, /sent back/i);
    expect(note.text).toContain('> Say which pier, please.');
    expect((await listed()).items.find((item) => item.title === title)).toBeUndefined();

    // The contributor changes it and submits it again, from their drafts.
    await hydrated(contributor, '/drafts');
    await expect(contributor.getByRole('listitem').filter({ hasText: title })).not.toContainText('Submitted for review');
    await contributor.getByRole('link', { name: `Edit ${title}` }).click();
    await contributor.getByLabel('Content').fill('The boats sat on the mud at the north pier till noon.');
    await contributor.getByRole('button', { name: 'Submit for review' }).click();
    await okay(contributor, 'Submitted for review');
    await expect.poll(async () => (await listed()).items.some((item) => item.title === title)).toBe(true);

    // The editor publishes it; the contributor is mailed its readable address.
    await hydrated(editor, editLink);
    await expect(editor.getByText(`Submitted for review by`)).toBeVisible();
    await editor.getByRole('button', { name: 'Publish', exact: true }).click();
    await okay(editor, 'Blog Published!');
    const published = await server.waitForMail(contributorEmail, /published/i);
    const address = published.links.find((each) => each.includes('/blog/'))!;
    expect(address).toMatch(/\/blog\/low-water-at-the-pier$/);
    const reader = await browser.newContext({ baseURL: server.baseURL });
    expect((await reader.request.get(new URL(address).pathname)).status()).toBe(200);

    for (const context of [ownerContext, reader, editor.context(), contributor.context()]) await context.close();
  });
});
