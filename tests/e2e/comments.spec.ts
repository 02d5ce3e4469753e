import type { APIRequestContext } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config';
import { expect, signUpVerified, test } from './support/fixtures';
import { waitForMail } from './support/outbox';

const unique = () => Math.random().toString(36).slice(2, 8);

async function createBlog(request: APIRequestContext, title: string): Promise<{ id: string }> {
  const response = await request.post('/api/blogs', { multipart: { title, blog: `Content of ${title}` }, headers: { origin: E2E_BASE_URL } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string };
}

async function addComment(request: APIRequestContext, blogId: string, body: string, parentId?: string): Promise<{ id: string }> {
  const response = await request.post(`/api/blogs/${blogId}/comments`, { data: { body, parentId }, headers: { origin: E2E_BASE_URL } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string };
}

test.describe('comments on /viewBlog', () => {
  test('comment, reply, edit and delete in place; an empty comment is refused; the card counts them', async ({ page, context }) => {
    const { email } = await signUpVerified(context);
    const word = `talk${unique()}`;
    const blog = await createBlog(context.request, `Comment on me ${word}`);
    await page.goto(`/viewBlog?id=${blog.id}`);
    let loads = 0;
    page.on('load', () => loads++);

    await expect(page.getByRole('heading', { name: 'Comments (0)' })).toBeVisible();
    const field = page.getByLabel('Add a comment');
    const postButton = page.getByRole('button', { name: 'Post comment' });

    await postButton.click();
    await expect(page.getByText('Add a comment!')).toBeVisible();
    await expect(field).toHaveAttribute('aria-invalid', 'true');

    await field.fill('A *first* thought');
    await expect(field).not.toHaveAttribute('aria-invalid', 'true');
    await postButton.click();
    await expect(page.getByRole('heading', { name: 'Comments (1)' })).toBeVisible();
    const first = page.getByRole('article').filter({ hasText: 'A first thought' }).last();
    await expect(first).toContainText(email);
    await expect(first.locator('em')).toHaveText('first');
    await expect(field).toHaveValue('');

    await first.getByRole('button', { name: 'Reply' }).click();
    await page.getByLabel('Add a reply').fill('Answering myself');
    await page.getByRole('button', { name: 'Post reply' }).click();
    await expect(page.getByRole('heading', { name: 'Comments (2)' })).toBeVisible();
    const reply = page.locator('.comment-replies article').filter({ hasText: 'Answering myself' });
    await expect(reply).toBeVisible();
    // One level only: a reply has no Reply button of its own.
    await expect(reply.getByRole('button', { name: 'Reply' })).toHaveCount(0);

    await reply.getByRole('button', { name: 'Edit comment' }).click();
    // In edit mode the text is the field's value, not the article's text: find the field by its label.
    const replies = page.locator('.comment-replies');
    await expect(replies.getByLabel('Comment text')).toHaveValue('Answering myself');
    await replies.getByLabel('Comment text').fill('Answering myself, edited');
    await replies.getByRole('button', { name: 'Save comment' }).click();
    await expect(page.locator('.comment-replies')).toContainText('Answering myself, edited');

    const editedReply = page.locator('.comment-replies article').filter({ hasText: 'edited' });
    await editedReply.getByRole('button', { name: 'Delete comment' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('heading', { name: 'Comments (1)' })).toBeVisible();
    await expect(page.getByText('Answering myself')).toHaveCount(0);
    expect(loads).toBe(0);

    await page.goto(`/search?searchTerm=${word}`);
    const card = page.getByRole('article').filter({ hasText: `Comment on me ${word}` });
    await expect(card).toContainText('Comments: 1');
  });

  test("the blog's owner may delete anyone's comment on it, and a reader only their own", async ({ page, context, browser }) => {
    await signUpVerified(context);
    const blog = await createBlog(context.request, `Owned ${unique()}`);
    const readerContext = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` } });
    await signUpVerified(readerContext);
    await addComment(readerContext.request, blog.id, 'Visiting reader was here');
    await readerContext.close();

    await page.goto(`/viewBlog?id=${blog.id}`);
    const theirs = page.getByRole('article').filter({ hasText: 'Visiting reader was here' }).last();
    await expect(theirs.getByRole('button', { name: 'Delete comment' })).toBeVisible();
    await expect(theirs.getByRole('button', { name: 'Edit comment' })).toHaveCount(0);
    await theirs.getByRole('button', { name: 'Delete comment' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('heading', { name: 'Comments (0)' })).toBeVisible();
  });
});

test.describe('e-mails about comments', () => {
  test("the e-mail's link opens a page whose button unsubscribes; Settings shows it and turns it back on", async ({ page, context, browser }) => {
    const { email } = await signUpVerified(context);
    const blog = await createBlog(context.request, `Mail me ${unique()}`);
    const readerContext = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` } });
    await signUpVerified(readerContext);
    await addComment(readerContext.request, blog.id, 'Hello author');
    await readerContext.close();

    const mail = await waitForMail(email, /New comment on/);
    const link = mail.links.find((url) => url.includes('/unsubscribe?token='))!;
    await page.goto(link);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('status')).toContainText('You will no longer get e-mails about comments and replies.');

    await page.goto('/settings');
    const checkbox = page.getByLabel('E-mail me about comments and replies');
    await expect(checkbox).not.toBeChecked();
    await checkbox.check();
    await expect(checkbox).toBeEnabled();
    await page.reload();
    await expect(page.getByLabel('E-mail me about comments and replies')).toBeChecked();
  });
});

test.describe('comments without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('are in the HTML the server sends, with a link to sign in', async ({ page, browser }) => {
    const writer = await browser.newContext();
    await signUpVerified(writer);
    const blog = await createBlog(writer.request, `Readable without scripts ${unique()}`);
    const top = await addComment(writer.request, blog.id, 'Server-rendered comment');
    await addComment(writer.request, blog.id, 'Server-rendered reply', top.id);
    await writer.close();

    await page.goto(`/viewBlog?id=${blog.id}`);
    await expect(page.getByRole('heading', { name: 'Comments (2)' })).toBeVisible();
    await expect(page.getByText('Server-rendered comment')).toBeVisible();
    await expect(page.getByText('Server-rendered reply')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign in to comment' })).toHaveAttribute('href', '/auth');
    // No script ran: the page was never hydrated.
    await expect(page.locator('html')).not.toHaveAttribute('data-hydrated', 'true');
  });
});
