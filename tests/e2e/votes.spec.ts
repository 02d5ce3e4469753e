import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config';
import { expect, signUpVerified, test, uniqueEmail } from './support/fixtures';

const unique = () => Math.random().toString(36).slice(2, 8);

async function createBlog(request: APIRequestContext, title: string): Promise<{ id: string }> {
  const response = await request.post('/api/blogs', { multipart: { title, blog: `Content of ${title}` }, headers: { origin: E2E_BASE_URL } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string };
}

test.describe('voting on /viewBlog', () => {
  test('up, a repeat shows the spec message, down moves the vote; counts update in place', async ({ page, context }) => {
    await signUpVerified(context);
    const blog = await createBlog(context.request, `Vote on me ${unique()}`);
    await page.goto(`/viewBlog?id=${blog.id}`);

    const upvote = page.getByRole('button', { name: 'Upvote', exact: true });
    const downvote = page.getByRole('button', { name: 'Downvote', exact: true });
    await expect(page.getByText('Upvote Count: 0')).toBeVisible();
    await expect(page.getByText('Downvote Count: 0')).toBeVisible();
    await expect(upvote).toHaveAttribute('aria-pressed', 'false');
    await expect(downvote).toHaveAttribute('aria-pressed', 'false');

    // A reload would reset this marker and fire another load event.
    let loads = 0;
    page.on('load', () => loads++);
    await page.evaluate(() => {
      (window as unknown as { voteMarker: string }).voteMarker = 'still here';
    });

    await upvote.click();
    await expect(page.getByText('Upvote Count: 1')).toBeVisible();
    await expect(page.getByText('Downvote Count: 0')).toBeVisible();
    await expect(upvote).toHaveAttribute('aria-pressed', 'true');
    await expect(downvote).toHaveAttribute('aria-pressed', 'false');

    const dialog = page.getByRole('dialog');
    await upvote.click();
    await expect(dialog.getByRole('heading', { name: 'Error' })).toBeVisible();
    await expect(dialog).toContainText('You have already upvoted this blog');
    await dialog.getByRole('button', { name: 'Okay' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Upvote Count: 1')).toBeVisible();

    await downvote.click();
    await expect(page.getByText('Upvote Count: 0')).toBeVisible();
    await expect(page.getByText('Downvote Count: 1')).toBeVisible();
    await expect(downvote).toHaveAttribute('aria-pressed', 'true');
    await expect(upvote).toHaveAttribute('aria-pressed', 'false');

    await downvote.click();
    await expect(dialog).toContainText('You have already downvoted this blog');
    await dialog.getByRole('button', { name: 'Okay' }).click();
    await expect(dialog).toBeHidden();

    expect(loads).toBe(0);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${v.help}`)).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { voteMarker?: string }).voteMarker)).toBe('still here');

    // The server kept the vote: a fresh load shows the same.
    await page.reload();
    await expect(page.getByText('Downvote Count: 1')).toBeVisible();
    await expect(page.getByText('Upvote Count: 0')).toBeVisible();
    await expect(downvote).toHaveAttribute('aria-pressed', 'true');
  });

  test('a failure other than a repeat also shows in the dialog', async ({ page, context }) => {
    await signUpVerified(context);
    const blog = await createBlog(context.request, `Failing vote ${unique()}`);
    await page.goto(`/viewBlog?id=${blog.id}`);
    await page.route('**/api/blogs/*/vote', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'UNAVAILABLE', message: 'Voting is resting.' }) }),
    );
    await page.getByRole('button', { name: 'Upvote', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Error' })).toBeVisible();
    await expect(dialog).toContainText('Voting is resting.');
    await dialog.getByRole('button', { name: 'Okay' }).click();
    await expect(page.getByText('Upvote Count: 0')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Upvote', exact: true })).toHaveAttribute('aria-pressed', 'false');
  });

  test('signed-out visitors see the counts and no vote buttons', async ({ browser, page }) => {
    const author = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': `10.251.${Math.floor(Math.random() * 250)}.7` } });
    let blogId: string;
    try {
      await signUpVerified(author, uniqueEmail('vote-author'));
      blogId = (await createBlog(author.request, `Read but not voted ${unique()}`)).id;
      const vote = await author.request.put(`/api/blogs/${blogId}/vote`, { data: { direction: 'up' }, headers: { origin: E2E_BASE_URL } });
      expect(vote.status(), await vote.text()).toBe(200);
    } finally {
      await author.close();
    }

    await page.goto(`/viewBlog?id=${blogId}`);
    await expect(page.getByText('Upvote Count: 1')).toBeVisible();
    await expect(page.getByText('Downvote Count: 0')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Upvote', exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Downvote', exact: true })).toHaveCount(0);

    const refused = await page.request.put(`/api/blogs/${blogId}/vote`, { data: { direction: 'up' }, headers: { origin: E2E_BASE_URL } });
    expect(refused.status()).toBe(401);
  });
});
