import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import type { QueueJob, QueueOverview } from '../../src/shared/subscription-schema';
import { E2E_BASE_URL } from '../../playwright.config';
import { expect, signUpVerified, test, uniqueEmail } from './support/fixtures';
import { readOutboxNow, waitForMail } from './support/outbox';

const unique = () => Math.random().toString(36).slice(2, 8);
const randomIp = () => `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

async function userId(context: BrowserContext): Promise<string> {
  const session = await context.request.get('/api/auth/get-session');
  return ((await session.json()) as { user: { id: string } }).user.id;
}

async function publishBlog(request: APIRequestContext, title: string): Promise<string> {
  const response = await request.post('/api/blogs', { multipart: { title, blog: `Content of ${title}` }, headers: { origin: E2E_BASE_URL } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${page.url()}: ${v.id} ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.describe('e-mail subscriptions', () => {
  test("a visitor subscribes to an author, confirms with the e-mail's button, hears of the next blog once, and unsubscribes", async ({ page, browser }) => {
    const authorContext = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': randomIp() } });
    const author = await signUpVerified(authorContext);
    const authorId = await userId(authorContext);
    const authorPage = await authorContext.newPage();
    const reader = uniqueEmail('reader');

    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));

    // A bad address is refused by the form itself, without a request.
    await page.goto(`/author?id=${authorId}`);
    const field = page.getByLabel('Email address');
    await field.fill('not an address');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByText('Enter a valid e-mail address.')).toBeVisible();
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(requested).not.toContain('/api/subscriptions');

    await field.fill(reader);
    await expect(field).not.toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('status')).toHaveText('Check your inbox: we sent you a link to confirm the subscription.');
    await expectNoSeriousAxeViolations(page);

    // Opening the link (as a mail scanner would) only shows the page: nothing is confirmed yet.
    const confirmation = await waitForMail(reader, /Confirm your subscription/);
    const confirmLink = confirmation.links.find((url) => url.includes('/subscription/confirm?token='));
    expect(confirmLink).toBeTruthy();
    await page.goto(confirmLink!);
    await expect(page).toHaveTitle(/^Confirm subscription/);
    await expect(page.getByRole('main')).toContainText(reader);
    await expect(page.getByRole('main')).toContainText(author.email);
    await authorPage.goto(`/author?id=${authorId}`);
    await expect(authorPage.getByText('0 subscribers')).toBeVisible();
    await expectNoSeriousAxeViolations(page);

    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await expect(page.getByRole('status')).toHaveText('You are subscribed.');

    // Only the author sees how many follow them.
    await authorPage.reload();
    await expect(authorPage.getByText('1 subscriber', { exact: true })).toBeVisible();
    // Nobody else does, nor does their browser ask.
    await page.goto(`/author?id=${authorId}`);
    await page.waitForLoadState('networkidle');
    await expect(page.getByText(/^\d+ subscribers?$/)).toHaveCount(0);
    expect(requested).not.toContain(`/api/authors/${authorId}/subscribers`);

    const title = `Fresh news ${unique()}`;
    await publishBlog(authorContext.request, title);
    const aboutIt = (subject: string) => subject.includes(`“${title}”`);
    const newPost = await waitForMail(reader, new RegExp(`“${title}”`));
    expect((await readOutboxNow()).filter((mail) => mail.to === reader && aboutIt(mail.subject))).toHaveLength(1);
    const unsubscribeLink = newPost.links.find((url) => url.includes('/subscription/unsubscribe?token='));
    expect(unsubscribeLink).toBeTruthy();
    expect(newPost.headers['list-unsubscribe']).toBe(`<${unsubscribeLink}>`);

    await page.goto(unsubscribeLink!);
    await expect(page).toHaveTitle(/^Unsubscribe/);
    await expect(page.getByRole('main')).toContainText(reader);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('status')).toHaveText('You are unsubscribed.');

    await authorPage.reload();
    await expect(authorPage.getByText('0 subscribers')).toBeVisible();
    await authorContext.close();
  });

  test('a signed-in reader subscribes their own address to the site at once, and removes it in Settings', async ({ page, context }) => {
    const { email } = await signUpVerified(context);
    await page.goto('/');
    const form = page.getByRole('region', { name: 'Get new blogs by e-mail' });
    await expect(form.getByLabel('Email address')).toHaveValue(email);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(form.getByRole('status')).toHaveText('Subscribed');

    await page.goto('/settings');
    const list = page.getByRole('list', { name: 'Your subscriptions' });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list).toContainText('New blogs on the whole site');
    await expect(list).toContainText(email);
    await expectNoSeriousAxeViolations(page);
    await page.getByRole('button', { name: 'Remove subscription to the whole site' }).click();
    await expect(page.getByText('You have no subscriptions.')).toBeVisible();
    await page.reload();
    await expect(page.getByText('You have no subscriptions.')).toBeVisible();
  });

  // A failed job cannot be made on demand (the e2e server's mail goes to its outbox), and the one
  // moderator account belongs to moderation.spec.ts: the moderation API's answers are stubbed here.
  test("the moderators' mail queue shows the counts and the failed jobs, and Retry sends one back", async ({ page, context }) => {
    await signUpVerified(context);
    const failedJob: QueueJob = {
      id: '42',
      kind: 'new-post-mail',
      state: 'failed',
      attempts: 5,
      lastError: '451 Try again later',
      runAt: '2026-11-25T10:00:00.000Z',
      updatedAt: '2026-11-25T10:05:00.000Z',
    };
    let queue: QueueOverview = { counts: { pending: 2, running: 1, done: 40, failed: 1 }, failed: [failedJob] };
    const retried: string[] = [];
    await page.route('**/api/moderation/access', (route) => route.fulfill({ json: { moderator: true } }));
    await page.route('**/api/moderation', (route) => route.fulfill({ json: { reports: [], hidden: [], suspended: [], log: [] } }));
    await page.route('**/api/moderation/queue', (route) => route.fulfill({ json: queue }));
    await page.route('**/api/moderation/queue/*/retry', async (route) => {
      expect(route.request().method()).toBe('POST');
      retried.push(new URL(route.request().url()).pathname);
      queue = { counts: { pending: 3, running: 1, done: 40, failed: 0 }, failed: [] };
      await route.fulfill({ json: { ...failedJob, state: 'pending', attempts: 0 } });
    });

    await page.goto('/moderation');
    const section = page.getByRole('region', { name: 'Mail queue' });
    // Each count is a <dt> (its state) and a <dd> (the number) in their own <div>.
    const count = (label: string) => section.locator('dl > div').filter({ has: page.getByRole('term').getByText(label, { exact: true }) }).getByRole('definition');
    await expect(count('Pending')).toHaveText('2');
    await expect(count('Running')).toHaveText('1');
    await expect(count('Sent')).toHaveText('40');
    await expect(count('Failed')).toHaveText('1');
    const row = section.getByRole('table', { name: 'Failed jobs' }).getByRole('row').filter({ hasText: 'new-post-mail' });
    await expect(row).toContainText('451 Try again later');
    await expect(row.getByRole('cell').nth(1)).toHaveText('5');
    await expectNoSeriousAxeViolations(page);

    await row.getByRole('button', { name: 'Retry' }).click();
    await expect(section.getByText('No job has failed.')).toBeVisible();
    await expect(count('Failed')).toHaveText('0');
    await expect(count('Pending')).toHaveText('3');
    expect(retried).toEqual(['/api/moderation/queue/42/retry']);
  });

  test('a link whose token is not valid says so, with a 404', async ({ page }) => {
    for (const path of ['/subscription/confirm?token=not-a-token', '/subscription/unsubscribe?token=not-a-token', '/subscription/confirm']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { name: 'This link is not valid any more.' })).toBeVisible();
      await expect(page.getByRole('button', { name: /Confirm subscription|Unsubscribe/ })).toHaveCount(0);
    }
  });
});
