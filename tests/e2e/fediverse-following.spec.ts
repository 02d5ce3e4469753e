import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, signUpVerified, test } from './support/fixtures';

const TITLE = 'Following on the fediverse';
const BAD_ADDRESS_MESSAGE = 'Enter a fediverse address such as @someone@example.social.';

/** Counts the follow requests the page sends, to show the form's own check needs none. */
function countFollowPosts(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/federation/following') count++;
  });
  return () => count;
}

test.describe('following on the fediverse', () => {
  test('signed out, the page asks to sign in', async ({ page }) => {
    const response = await page.goto('/following');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Please sign in' })).toBeVisible();
    await expect(page.getByText('You need to be signed in to follow authors on the fediverse.')).toBeVisible();
    await expect(page.getByLabel('Fediverse address')).toHaveCount(0);
  });

  test('Settings links to the page, which starts empty and passes an axe check', async ({ page, context }) => {
    await signUpVerified(context);
    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 2, name: 'Fediverse' })).toBeVisible();
    await page.getByRole('link', { name: TITLE }).click();
    await expect(page).toHaveURL(/\/following$/);
    await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(`^${TITLE}`));
    await expect(page.getByRole('heading', { level: 2, name: 'Follow someone on the fediverse' })).toBeVisible();
    await expect(page.getByText('You do not follow anyone on the fediverse yet.')).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Their posts' })).toBeVisible();
    await expect(page.getByText(/^No posts yet\./)).toBeVisible();
    await expect(page.getByLabel('Fediverse address')).toHaveAttribute('placeholder', '@someone@example.social');

    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id} ${v.help}`)).toEqual([]);
  });

  test('a bad address is refused by the form, an address nobody answers at shows the API’s error', async ({ page, context }) => {
    await signUpVerified(context);
    const followPosts = countFollowPosts(page);
    await page.goto('/following');
    const field = page.getByLabel('Fediverse address');
    const follow = page.getByRole('button', { name: 'Follow', exact: true });

    await field.fill('not an address');
    await follow.click();
    await expect(page.getByRole('alert')).toHaveText(BAD_ADDRESS_MESSAGE);
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(followPosts()).toBe(0);

    // Nothing listens on port 9 of loopback, and this server refuses private addresses anyway:
    // the lookup fails and the API answers 400 with its message.
    await field.fill('@nobody@127.0.0.1:9');
    await expect(field).not.toHaveAttribute('aria-invalid', 'true');
    const answered = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/federation/following');
    await follow.click();
    expect((await answered).status()).toBe(400);
    await expect(page.getByRole('alert')).toHaveText('No fediverse account was found at that address.');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(follow).toBeEnabled();
    await expect(page.getByText('You do not follow anyone on the fediverse yet.')).toBeVisible();
  });

  test('with the API’s answers stubbed in the browser: the list, Unfollow behind a confirm, the posts and a reply', async ({ page, context }) => {
    // No second site is reachable from this server (private addresses are refused), so the
    // lists come from the browser's side; this checks the screen, not federation.
    await signUpVerified(context);
    let following = [
      { actorId: 'https://remote.example/users/ada', handle: 'ada@remote.example', name: 'Ada', state: 'accepted' },
      { actorId: 'https://remote.example/users/bob', handle: 'bob@remote.example', name: null, state: 'pending' },
    ];
    let unfollowed: unknown = null;
    let replied: unknown = null;
    await page.route('**/api/federation/following', async (route) => {
      const request = route.request();
      if (request.method() === 'GET') return route.fulfill({ json: { items: following } });
      if (request.method() === 'DELETE') {
        unfollowed = request.postDataJSON();
        following = following.filter((account) => account.actorId !== (unfollowed as { actorId: string }).actorId);
        return route.fulfill({ status: 204 });
      }
      return route.continue();
    });
    await page.route('**/api/federation/timeline', (route) =>
      route.fulfill({
        json: {
          items: [
            {
              objectId: 'https://remote.example/posts/2',
              actorId: 'https://remote.example/users/ada',
              handle: 'ada@remote.example',
              name: 'Ada',
              url: 'https://remote.example/@ada/2',
              title: 'Newer post',
              html: '<p>Hello <strong>fediverse</strong>.</p>',
              summary: null,
              publishedAt: '2026-11-20T10:00:00.000Z',
              updatedAt: null,
            },
            {
              objectId: 'https://remote.example/posts/1',
              actorId: 'https://remote.example/users/ada',
              handle: 'ada@remote.example',
              name: 'Ada',
              url: null,
              title: 'Older post',
              html: '<p>First words.</p>',
              summary: null,
              publishedAt: '2026-11-10T10:00:00.000Z',
              updatedAt: null,
            },
          ],
        },
      }),
    );
    await page.route('**/api/federation/replies', (route) => {
      replied = route.request().postDataJSON();
      return route.fulfill({ json: { id: 'https://here.example/replies/1' } });
    });

    await page.goto('/following');
    const list = page.getByRole('list', { name: 'Accounts you follow' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await expect(list.getByRole('listitem').nth(0)).toContainText('Ada');
    await expect(list.getByRole('listitem').nth(0)).not.toContainText('Waiting for approval');
    await expect(list.getByRole('listitem').nth(1)).toContainText('@bob@remote.example');
    await expect(list.getByRole('listitem').nth(1)).toContainText('Waiting for approval');

    const posts = page.getByRole('article');
    await expect(posts).toHaveCount(2);
    await expect(posts.nth(0).getByRole('heading', { level: 3 })).toHaveText('Newer post');
    const link = posts.nth(0).getByRole('link', { name: 'Newer post' });
    await expect(link).toHaveAttribute('href', 'https://remote.example/@ada/2');
    await expect(link).toHaveAttribute('rel', 'nofollow ugc noopener');
    await expect(posts.nth(0)).toContainText('Ada (@ada@remote.example)');
    await expect(posts.nth(0)).toContainText('2026-11-20');
    await expect(posts.nth(0).locator('.blog-body strong')).toHaveText('fediverse');
    await expect(posts.nth(1).getByRole('heading', { level: 3 })).toHaveText('Older post');
    await expect(posts.nth(1).getByRole('link', { name: 'Older post' })).toHaveCount(0);

    // An empty reply is refused by the form; a written one is sent.
    const first = posts.nth(0);
    await first.getByRole('button', { name: 'Send reply' }).click();
    await expect(first.getByRole('alert')).toHaveText('Write a reply first.');
    expect(replied).toBeNull();
    await first.getByLabel('Reply to Newer post').fill('Nice one!');
    await first.getByRole('button', { name: 'Send reply' }).click();
    await expect(first.getByRole('status')).toHaveText('Reply sent.');
    expect(replied).toEqual({ inReplyTo: 'https://remote.example/posts/2', content: 'Nice one!' });
    await expect(first.getByLabel('Reply to Newer post')).toHaveValue('');

    // Unfollow asks first; Cancel keeps the account.
    await list.getByRole('button', { name: 'Unfollow @bob@remote.example' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Stop following @bob@remote.example');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    expect(unfollowed).toBeNull();
    await list.getByRole('button', { name: 'Unfollow @bob@remote.example' }).click();
    await dialog.getByRole('button', { name: 'Unfollow' }).click();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    expect(unfollowed).toEqual({ actorId: 'https://remote.example/users/bob' });

    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id} ${v.help}`)).toEqual([]);
  });
});
