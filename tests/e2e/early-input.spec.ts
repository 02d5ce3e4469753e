import type { APIRequestContext, BrowserContext, Page, Request } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config';
import { expect, signUpVerified, test, uniqueEmail } from './support/fixtures';
import { waitForMail } from './support/outbox';

/**
 * Issue 42, item 8: what a reader types, pastes or autofills into a form of a server-rendered
 * page is what the form sends, however early it happens. Each field here is filled in one input
 * event (`fill`, as a paste or Chromium's autofill makes) as soon as it is on screen, on a page
 * opened without the fixture's wait for hydration, and in three timings:
 *
 * - `at once`: nothing is slowed; the fill comes before the app has hydrated (on an anonymous
 *   reading page the fill's own focus is what starts loading it);
 * - `app held back`: the page's one script runs, the app's scripts are held until the fill is done;
 * - `all held back`: no script at all has arrived when the field is filled.
 */
type Timing = 'at once' | 'app held back' | 'all held back';
const TIMINGS: Timing[] = ['at once', 'app held back', 'all held back'];

const unique = () => Math.random().toString(36).slice(2, 8);

interface EarlyPage {
  page: Page;
  /** Lets the held scripts through and waits until the page's one script has run. */
  release: () => Promise<void>;
}

/** The page's one script (`src/web/loader.ts`, built as the HTML's module script). */
async function pageScript(request: APIRequestContext): Promise<string> {
  const html = await (await request.get('/about')).text();
  const src = /<script[^>]*type="module"[^>]*src="([^"]+)"/.exec(html)?.[1];
  expect(src, 'the module script of the HTML').toBeTruthy();
  return src!;
}

/** Opens `path` in a page of `context` and answers as soon as the response starts, the scripts held back as `timing` says. */
async function openEarly(context: BrowserContext, path: string, timing: Timing): Promise<EarlyPage> {
  const page = await context.newPage();
  let letThrough = () => {};
  if (timing !== 'at once') {
    const passes = timing === 'app held back' ? await pageScript(context.request) : null;
    const released = new Promise<void>((resolve) => (letThrough = resolve));
    await page.route(/\/assets\/[^?#]+\.js$/, async (route) => {
      if (new URL(route.request().url()).pathname !== passes) await released;
      await route.continue();
    });
  }
  await page.goto(path, { waitUntil: 'commit' });
  return {
    page,
    release: async () => {
      letThrough();
      // Module scripts run before DOMContentLoaded: from here a press meets the page's script.
      await page.waitForLoadState('domcontentloaded');
    },
  };
}

/** Fills `field` in one input event and checks that the app had not hydrated yet when it was held back. */
async function fillEarly(page: Page, field: ReturnType<Page['getByLabel']>, value: string, timing: Timing) {
  await field.fill(value);
  if (timing !== 'at once') await expect(page.locator('html')).not.toHaveAttribute('data-hydrated', 'true', { timeout: 0 });
}

function nextPost(page: Page, pathname: string): Promise<Request> {
  return page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === pathname);
}

async function createBlog(request: APIRequestContext, title: string): Promise<string> {
  const response = await request.post('/api/blogs', { multipart: { title, blog: `Content of ${title}` }, headers: { origin: E2E_BASE_URL } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function addComment(request: APIRequestContext, blogId: string, body: string): Promise<void> {
  const response = await request.post(`/api/blogs/${blogId}/comments`, { data: { body }, headers: { origin: E2E_BASE_URL } });
  expect(response.status(), await response.text()).toBe(201);
}

async function userId(request: APIRequestContext): Promise<string> {
  const session = await request.get('/api/auth/get-session');
  return ((await session.json()) as { user: { id: string } }).user.id;
}

const CHECK_YOUR_INBOX = 'Check your inbox: we sent you a link to confirm the subscription.';

test.describe('a form filled as the page loads sends what was filled', () => {
  for (const timing of TIMINGS) {
    test(`an anonymous reader's subscribe (/, an author's page, a blog's page), search and contact forms, filled ${timing}`, async ({ browser, context }) => {
      const author = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': `10.42.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` } });
      await signUpVerified(author);
      const word = `early${unique()}`;
      const blogId = await createBlog(author.request, `Harbour ${word}`);
      const authorId = await userId(author.request);
      await author.close();

      for (const path of ['/', `/author?id=${authorId}`, `/viewBlog?id=${blogId}`]) {
        const { page, release } = await openEarly(context, path, timing);
        const address = uniqueEmail('early');
        const sent = nextPost(page, '/api/subscriptions');
        await fillEarly(page, page.getByLabel('Email address'), address, timing);
        await release();
        await page.getByRole('button', { name: 'Subscribe' }).click();
        expect((await sent).postDataJSON(), path).toMatchObject({ email: address });
        await expect(page.getByText(CHECK_YOUR_INBOX), path).toBeVisible();
        await expect(page.getByLabel('Email address'), path).toHaveValue(address);
        await expect(page.getByText('Enter a valid e-mail address.')).toHaveCount(0);
        await waitForMail(address, /Confirm your subscription/);
        await page.close();
      }

      // The search box is a real GET form: it arrives with or without the app.
      const search = await openEarly(context, '/about', timing);
      await fillEarly(search.page, search.page.getByRole('searchbox', { name: 'Search' }), word, timing);
      await search.release();
      await search.page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect(search.page).toHaveURL(new RegExp(`/search\\?searchTerm=${word}$`));
      await expect(search.page.getByText(`1 blogs matched the search term ${word}`, { exact: true })).toBeVisible();
      await search.page.close();

      const support = await openEarly(context, '/support', timing);
      const from = uniqueEmail('contact');
      const message = `Filled ${timing}, ${word}.`;
      const contacted = nextPost(support.page, '/api/contact');
      await fillEarly(support.page, support.page.getByLabel('Email address'), from, timing);
      await fillEarly(support.page, support.page.getByLabel('Your Message'), message, timing);
      await support.release();
      await support.page.getByRole('button', { name: 'Submit' }).click();
      expect((await contacted).postDataJSON()).toEqual({ email: from, message });
      await expect(support.page.getByRole('dialog')).toContainText('Thank you! Your message has been sent.');
      await support.page.close();
    });

    test(`a signed-in reader's subscribe, comment, reply, follow and fediverse reply forms, filled ${timing}`, async ({ context }) => {
      const { email } = await signUpVerified(context);
      const word = `early${unique()}`;
      const blogId = await createBlog(context.request, `Tides ${word}`);
      await addComment(context.request, blogId, `First word on ${word}`);

      // Their own address is in the field; the one filled over it is the one sent.
      const blog = await openEarly(context, `/viewBlog?id=${blogId}`, timing);
      const region = blog.page.getByRole('region', { name: 'Get new blogs by e-mail' });
      await expect(region.getByLabel('Email address')).toHaveValue(email);
      const address = uniqueEmail('other');
      const subscribed = nextPost(blog.page, '/api/subscriptions');
      await fillEarly(blog.page, region.getByLabel('Email address'), address, timing);
      const comment = `A comment filled ${timing} on ${word}`;
      const commented = nextPost(blog.page, `/api/blogs/${blogId}/comments`);
      await fillEarly(blog.page, blog.page.getByLabel('Add a comment'), comment, timing);
      await blog.release();

      await region.getByRole('button', { name: 'Subscribe' }).click();
      expect((await subscribed).postDataJSON()).toMatchObject({ email: address });
      await expect(region.getByRole('status')).toHaveText(CHECK_YOUR_INBOX);
      await waitForMail(address, /Confirm your subscription/);

      await blog.page.getByRole('button', { name: 'Post comment' }).click();
      expect((await commented).postDataJSON()).toMatchObject({ body: comment });
      await expect(blog.page.getByRole('heading', { name: 'Comments (2)' })).toBeVisible();
      await expect(blog.page.getByText(comment)).toBeVisible();
      await expect(blog.page.getByLabel('Add a comment')).toHaveValue('');
      await blog.page.close();

      // A reply's form appears on a press of Reply, which is held until the app has hydrated.
      const again = await openEarly(context, `/viewBlog?id=${blogId}`, timing);
      await again.release();
      await again.page.getByRole('button', { name: 'Reply' }).first().click();
      // Left alone, the subscribe field still shows their own address once the app is there.
      await expect(again.page.locator('html')).toHaveAttribute('data-hydrated', 'true');
      await expect(again.page.getByRole('region', { name: 'Get new blogs by e-mail' }).getByLabel('Email address')).toHaveValue(email);
      const reply = `A reply filled ${timing} on ${word}`;
      const replied = nextPost(again.page, `/api/blogs/${blogId}/comments`);
      await again.page.getByLabel('Add a reply').fill(reply);
      await again.page.getByRole('button', { name: 'Post reply' }).click();
      expect((await replied).postDataJSON()).toMatchObject({ body: reply });
      await expect(again.page.locator('.comment-replies')).toContainText(reply);
      await again.page.close();

      // /following renders its forms once the session is known; the API's answers are stubbed, as
      // in fediverse-following.spec.ts (no second site is reachable from this server). The stubs are
      // the context's, in place before the page opens: routed on the page once it had committed,
      // the Follow press once reached the real server (a flaky failure, 'No fediverse account').
      let followed: unknown = null;
      let fediverseReply: unknown = null;
      await context.route('**/api/federation/following', (route) => {
        if (route.request().method() === 'GET') return route.fulfill({ json: { items: [] } });
        followed = route.request().postDataJSON();
        return route.fulfill({ json: { actorId: 'https://remote.example/users/ada', handle: 'ada@remote.example', name: 'Ada', state: 'accepted' } });
      });
      await context.route('**/api/federation/timeline', (route) =>
        route.fulfill({
          json: {
            items: [
              {
                objectId: 'https://remote.example/posts/1',
                actorId: 'https://remote.example/users/ada',
                handle: 'ada@remote.example',
                name: 'Ada',
                url: null,
                title: 'A post',
                html: '<p>Words.</p>',
                summary: null,
                publishedAt: '2026-11-10T10:00:00.000Z',
                updatedAt: null,
              },
            ],
          },
        }),
      );
      await context.route('**/api/federation/replies', (route) => {
        fediverseReply = route.request().postDataJSON();
        return route.fulfill({ json: { id: 'https://here.example/replies/1' } });
      });
      const following = await openEarly(context, '/following', timing);
      await following.release();
      await following.page.getByLabel('Fediverse address').fill('@ada@remote.example');
      await following.page.getByRole('button', { name: 'Follow', exact: true }).click();
      await expect(following.page.getByText('You follow Ada now.', { exact: true })).toBeVisible();
      expect(followed).toEqual({ handle: '@ada@remote.example' });
      await expect(following.page.getByLabel('Fediverse address')).toHaveValue('');
      const post = following.page.getByRole('article');
      await post.getByLabel('Reply to A post').fill(`Well said, ${word}`);
      await post.getByRole('button', { name: 'Send reply' }).click();
      await expect(post.getByRole('status')).toHaveText('Reply sent.');
      expect(fediverseReply).toEqual({ inReplyTo: 'https://remote.example/posts/1', content: `Well said, ${word}` });
      await following.page.close();
    });
  }

  test('a selection made in a filled field before the app hydrates is still there after it, so what is typed replaces the text', async ({ context }) => {
    const { email } = await signUpVerified(context);
    const blogId = await createBlog(context.request, `Selected ${unique()}`);
    const { page, release } = await openEarly(context, `/viewBlog?id=${blogId}`, 'app held back');
    const field = page.getByRole('region', { name: 'Get new blogs by e-mail' }).getByLabel('Email address');
    await expect(field).toHaveValue(email);
    // The reader selects their own address, about to paste another over it; the app hydrates meanwhile.
    await field.selectText();
    await release();
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    const address = uniqueEmail('pasted');
    await page.keyboard.insertText(address);
    await expect(field).toHaveValue(address);
    const subscribed = nextPost(page, '/api/subscriptions');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    expect((await subscribed).postDataJSON()).toMatchObject({ email: address });
    await page.close();
  });
});
