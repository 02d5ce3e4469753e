import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import {
  FAKE_BLOG, FAKE_MODEL, startFakeOpenAiServer, type FakeOpenAiServer,
} from '../../src/server/testing/fake-openai-server';
import { DEFAULT_PASSWORD, expect, signUpVerified, test, uniqueEmail } from './support/fixtures';

/*
 * The main e2e server has no AI key, so it answers with the offline generator. The provider
 * tests start a second instance of the built app on the next port, pointed at the project's
 * fake OpenAI-compatible server, which each test tells how to answer.
 */

const generated = (page: Page) => page.getByTestId('generated-blog');
const card = (page: Page) => page.getByRole('region', { name: 'AI generated blog' });
const generateButton = (page: Page) => page.getByRole('button', { name: 'Generate Blog' });
const loadingButton = (page: Page) => page.getByRole('button', { name: 'Loading...' });

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} ${v.help}`)).toEqual([]);
}

test.describe('/ai with the offline generator (no AI key)', () => {
  test('signed out: only the header, a centred sign-in prompt and the footer', async ({ page }) => {
    await page.goto('/ai');
    await expect(page.getByRole('navigation').first()).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();
    const prompt = page.getByRole('heading', { name: 'Please sign in' });
    await expect(prompt).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Log in or Register' })).toBeVisible();
    // Nothing of the generator shows.
    await expect(page.getByRole('heading', { name: 'Develop Blog Ideas with AI!' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Generate Blog' })).toHaveCount(0);
    await expect(page.getByRole('main')).toHaveText(/^\s*Please sign in\s*You need to be signed in to use the AI Blog Generator\.\s*Log in or Register\s*$/);
    // Centred: the prompt's middle is the page's middle.
    const box = (await prompt.boundingBox())!;
    const width = page.viewportSize()!.width;
    expect(Math.abs(box.x + box.width / 2 - width / 2)).toBeLessThan(20);
    await expectNoSeriousAxeViolations(page);
  });

  test('generates a blog as it is written, then offers it as a draft', async ({ page, context }) => {
    await signUpVerified(context);
    await page.goto('/ai');
    await expect(page.getByRole('heading', { name: 'Develop Blog Ideas with AI!' })).toBeVisible();
    await expect(card(page).locator('.card-header')).toHaveText('Author: offline generator');
    await expect(card(page).locator('.card-body')).toContainText(/^Press the button below to generate a blog\./);
    await expect(page.getByRole('button', { name: 'Use as a draft' })).toHaveCount(0);

    // The text arrives while the request still runs: watched in the page on every frame, since
    // the offline stream can finish between two of Playwright's polls on a busy machine.
    const seenWhileLoading = page.waitForFunction(
      () => {
        const heading = document.querySelector('[data-testid="generated-blog"] h1');
        const loading = [...document.querySelectorAll('button')].find((button) => button.textContent === 'Loading...');
        return Boolean(heading?.textContent && loading?.disabled);
      },
      undefined,
      { polling: 'raf', timeout: 15_000 },
    );
    await generateButton(page).click();
    await seenWhileLoading;

    await expect(generateButton(page)).toBeEnabled({ timeout: 15_000 });
    await expect(card(page).locator('.card-header')).toHaveText('Author: offline generator');
    await expect(generated(page).locator('h1')).toHaveCount(1);
    expect(await generated(page).locator('p').count()).toBeGreaterThanOrEqual(3);
    const title = (await generated(page).locator('h1').innerText()).trim();
    expect(title.length).toBeGreaterThan(3);
    await expectNoSeriousAxeViolations(page);

    // What the draft holds once saved is drafts.spec.ts's to check.
    await expect(page.getByRole('button', { name: 'Use as a draft' })).toBeEnabled();
  });

  test('a second press writes a different blog', async ({ page, context }) => {
    await signUpVerified(context);
    await page.goto('/ai');
    await generateButton(page).click();
    await expect(generateButton(page)).toBeEnabled({ timeout: 15_000 });
    const first = await generated(page).innerText();
    await generateButton(page).click();
    await expect(generateButton(page)).toBeEnabled({ timeout: 15_000 });
    await expect(page.getByRole('button', { name: 'Use as a draft' })).toBeVisible();
    expect(await generated(page).innerText()).not.toBe(first);
  });
});

test.describe('/ai with an OpenAI-compatible provider (the fake, on loopback)', () => {
  const port = E2E_PORT + 1;
  const baseURL = `http://localhost:${port}`;
  let fake: FakeOpenAiServer;
  let server: ChildProcess;
  let dataDir: string;
  let serverLog = '';

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    fake = await startFakeOpenAiServer();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'blog-e2e-ai-'));
    const buildDir = path.resolve(process.env.BUILD_DIR ?? 'dist');
    server = spawn(process.execPath, [path.join(buildDir, 'server/main.js')], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PUBLIC_URL: baseURL,
        TRUST_PROXY: '127.0.0.1',
        AUTH_REQUIRE_EMAIL_VERIFICATION: 'false',
        AI_BASE_URL: fake.url,
        AI_API_KEY: 'e2e-provider-key-not-for-browsers',
        AI_TIMEOUT_MS: '2000',
        AI_REQUESTS_PER_MINUTE: '3',
        LOG_LEVEL: 'warn',
        SMTP_URL: '',
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
    const deadline = Date.now() + 110_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the AI test server exited: ${serverLog}`);
      try {
        if ((await fetch(`${baseURL}/api/health`)).ok) break;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error(`the AI test server did not start: ${serverLog}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });

  test.afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await fake?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** A context on the second instance, signed in as a new user. */
  async function signedInContext(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
    const bytes = randomBytes(3);
    const context = await browser.newContext({
      baseURL,
      extraHTTPHeaders: { 'x-forwarded-for': `10.${bytes[0]}.${bytes[1]}.${bytes[2]}` },
    });
    const email = uniqueEmail('ai');
    const signUp = await context.request.post('/api/auth/sign-up/email', {
      data: { email, password: DEFAULT_PASSWORD, name: 'ai' },
      headers: { origin: baseURL },
    });
    expect(signUp.status(), await signUp.text()).toBe(200);
    const page = await context.newPage();
    await page.goto('/ai');
    return { context, page };
  }

  test('streams the reply into the card, naming the model that really answered', async ({ browser }) => {
    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 6, delayMs: 250, model: FAKE_MODEL });
    const { context, page } = await signedInContext(browser);
    // Before any answer: the configured model.
    await expect(card(page).locator('.card-header')).toHaveText('Author: gpt-3.5-turbo');

    await generateButton(page).click();
    await expect(card(page).locator('.card-header')).toHaveText(`Author: ${FAKE_MODEL}`);
    await expect(generated(page).locator('h1')).toHaveText('The Fake Server Blog');
    // Part of the blog shows while the rest is still being written.
    await expect(loadingButton(page)).toBeDisabled();

    await expect(generateButton(page)).toBeEnabled();
    await expect(generated(page).locator('p')).toHaveText(['This reply comes from the test server.', 'It streams in small pieces.']);
    await expect(page.getByRole('button', { name: 'Use as a draft' })).toBeVisible();
    const sent = fake.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer e2e-provider-key-not-for-browsers');
    await context.close();
  });

  test('a hostile reply shows no script, handler, link or image', async ({ browser }) => {
    fake.setBehaviour({
      kind: 'stream',
      chunks: 7,
      text:
        '<h1>Harmless</h1><script>window.pwned = 1</script><p onclick="window.pwned = 2">Click ' +
        '<a href="https://example.com/">here</a></p><img src="x" onerror="window.pwned = 3"><p>Bye</p>',
    });
    const { context, page } = await signedInContext(browser);
    await generateButton(page).click();
    await expect(generateButton(page)).toBeEnabled();
    await expect(generated(page).locator('h1')).toHaveText('Harmless');
    await expect(generated(page).locator('p')).toHaveText(['Click here', 'Bye']);
    await expect(generated(page).locator('script, a, img, [onclick], [onerror]')).toHaveCount(0);
    await generated(page).locator('p').first().click();
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    await context.close();
  });

  test('failures show the reason and give the button back', async ({ browser }) => {
    const { context, page } = await signedInContext(browser);
    const alert = page.getByRole('alert');

    fake.setBehaviour({ kind: 'fail', status: 500 });
    await generateButton(page).click();
    await expect(alert).toContainText('The AI provider had a problem and could not write a blog.');
    await expect(generateButton(page)).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Use as a draft' })).toHaveCount(0);

    // Cut off mid-stream: what arrived stays, the reason shows, no draft is offered.
    fake.setBehaviour({ kind: 'cut', text: FAKE_BLOG, chunks: 5, sendChunks: 2 });
    await generateButton(page).click();
    await expect(alert).toContainText('cut off before it finished');
    await expect(generateButton(page)).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Use as a draft' })).toHaveCount(0);

    // No answer at all: the 2 s timeout of this instance.
    fake.setBehaviour({ kind: 'hang' });
    await generateButton(page).click();
    await expect(loadingButton(page)).toBeDisabled();
    await expect(alert).toContainText('did not answer within 2 seconds');
    await expect(generateButton(page)).toBeEnabled();
    await context.close();
  });

  test('the per-user limit answers in the page', async ({ browser }) => {
    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 2 });
    const { context, page } = await signedInContext(browser);
    for (let i = 0; i < 3; i++) {
      await generateButton(page).click();
      await expect(page.getByRole('button', { name: 'Use as a draft' })).toBeVisible();
    }
    await generateButton(page).click();
    await expect(page.getByRole('alert')).toHaveText('You can generate 3 blogs a minute. Please wait a minute and try again.');
    await expect(generateButton(page)).toBeEnabled();
    await context.close();
  });

  test('the provider key never reaches the browser', async ({ browser }) => {
    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 3 });
    const { context, page } = await signedInContext(browser);
    const bodies: string[] = [];
    const reading: Array<Promise<unknown>> = [];
    page.on('response', (response) => {
      bodies.push(JSON.stringify(response.headers()));
      reading.push(response.text().then((text) => bodies.push(text), () => undefined));
    });
    // A streamed body cannot always be read back from a 'response' event, so the generation
    // itself passes through the test, which keeps a copy of every byte the browser receives.
    let generation = '';
    await page.route('**/api/ai/generate', async (route) => {
      const response = await route.fetch();
      generation = await response.text();
      await route.fulfill({ response, body: generation });
    });
    await page.reload();
    await generateButton(page).click();
    await expect(generateButton(page)).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Use as a draft' })).toBeVisible();
    await Promise.all(reading);
    expect(generation).toContain('event: done');
    expect(generation).not.toContain('e2e-provider-key');
    expect(bodies.filter((body) => body.includes('e2e-provider-key'))).toEqual([]);
    await context.close();
  });
});
