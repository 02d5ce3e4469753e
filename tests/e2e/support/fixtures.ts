import { randomBytes } from 'node:crypto';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../../playwright.config';
import { waitForMail } from './outbox';

/**
 * Every test gets a browser context with its own client address (X-Forwarded-For, trusted from
 * loopback by the e2e server), so per-IP rate limits of one test never touch another.
 */
export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern -- Playwright's fixture signature: this one needs no other fixture.
  extraHTTPHeaders: async ({}, use) => {
    const bytes = randomBytes(3);
    await use({ 'x-forwarded-for': `10.${bytes[0]}.${bytes[1]}.${bytes[2]}` });
  },
  /**
   * Pages arrive rendered by the server, so their controls are on screen before the app has
   * hydrated them. After a page load, wait until the app says it is hydrated (`data-hydrated` on
   * <html>), as a person would wait for a page to finish loading. An anonymous reader's reading
   * page loads the app only on their first touch (docs/page-weight.md): the wait begins with
   * one, a focus, so that the tests' fills and clicks meet the hydrated screen as before.
   * (tests/e2e/page-weight.spec.ts clicks before the app is there.)
   */
  page: async ({ page, javaScriptEnabled }, use) => {
    const hydrated = async () => {
      await page.evaluate(() => window.dispatchEvent(new FocusEvent('focusin')));
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    };
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (...args) => {
      const response = await goto(...args);
      if (javaScriptEnabled) await hydrated();
      return response;
    };
    page.reload = async (...args) => {
      const response = await reload(...args);
      if (javaScriptEnabled) await hydrated();
      return response;
    };
    await use(page);
  },
});
export { expect };

export function uniqueEmail(prefix = 'e2e'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.com`;
}

export const DEFAULT_PASSWORD = 'correct horse battery';

/** The one moderator of the e2e server (`MODERATOR_EMAILS` in scripts/e2e-server.mjs). */
export const E2E_MODERATOR_EMAIL = 'e2e-moderator@example.com';
/** A second moderator, for the import spec (an address signs up once per e2e server). */
export const E2E_IMPORT_MODERATOR_EMAIL = 'e2e-import-moderator@example.com';
/** The moderator of the analytics spec (its own, so no spec's sign-up meets another's). */
export const E2E_ANALYTICS_MODERATOR_EMAIL = 'e2e-analytics-moderator@example.com';

/**
 * Signs up through the API, confirms through the e-mailed link's token, and leaves the
 * context signed in (the session cookie is shared by the context's pages).
 */
export async function signUpVerified(
  context: BrowserContext,
  email = uniqueEmail(),
  password = DEFAULT_PASSWORD,
): Promise<{ email: string; password: string }> {
  const baseURL = E2E_BASE_URL;
  const signUp = await context.request.post('/api/auth/sign-up/email', {
    data: { email, password, name: email.split('@')[0] },
    headers: { origin: baseURL },
  });
  expect(signUp.status(), await signUp.text()).toBe(200);
  const mail = await waitForMail(email, /confirm/i);
  const token = new URL(mail.links[0]!).searchParams.get('token');
  expect(token).toBeTruthy();
  const verify = await context.request.get(`/api/auth/verify-email?token=${encodeURIComponent(token!)}`, {
    headers: { origin: baseURL },
    maxRedirects: 0,
  });
  expect([200, 302]).toContain(verify.status());
  const session = await context.request.get('/api/auth/get-session');
  expect((await session.json())?.user?.email).toBe(email);
  return { email, password };
}

/**
 * Presses Submit on /create, closes the spec's 'Blog Created!' popup and answers the new blog's
 * id (from the API's answer, so the caller can open its page). Submit creates the blog
 * (`POST /api/blogs`), or publishes the draft an autosave made during a pause in the typing
 * (`PATCH /api/blogs/:id`): either answer carries the id.
 */
export async function submitNewBlog(page: Page): Promise<string> {
  const created = page.waitForResponse((response) => {
    const { pathname } = new URL(response.url());
    const method = response.request().method();
    return (method === 'POST' && pathname === '/api/blogs') || (method === 'PATCH' && /^\/api\/blogs\/[^/]+$/.test(pathname));
  });
  await page.getByRole('button', { name: 'Submit' }).click();
  const { id } = (await (await created).json()) as { id: string };
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Blog Created!');
  await dialog.getByRole('button', { name: 'Okay' }).click();
  return id;
}

/**
 * A gate a routed request waits at: the test opens it once it has seen what the page shows while
 * the request is in flight (instead of slowing the request by a fixed time and hoping).
 */
export function held(): { promise: Promise<void>; release(): void } {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}
