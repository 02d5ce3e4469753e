import type { Browser, BrowserContext, Page } from '@playwright/test';
import { DEFAULT_PASSWORD, expect, test, uniqueEmail } from './support/fixtures';
import { hydrated, signUpConfirmed, useOwnServer } from './support/own-server';

/**
 * Pages the owner writes (issue 58), on a server of its own (the shared server's specs read the
 * spec's About and Support): the owner rewrites About, reorders and adds Support questions and
 * makes a page at /page/<address>; readers see them with scripts on and off.
 */
test.describe('pages the owner writes', () => {
  const server = useOwnServer();
  const signUp = (context: BrowserContext, email: string) => signUpConfirmed(server, context, email, DEFAULT_PASSWORD);

  /** A reader's page, with or without scripts. */
  async function readerPage(browser: Browser, javaScriptEnabled: boolean, path: string): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.baseURL, javaScriptEnabled });
    const page = await context.newPage();
    if (javaScriptEnabled) await hydrated(page, path);
    else await page.goto(path);
    return page;
  }

  test('the owner rewrites About, changes the Support questions and makes a page; readers see them with scripts on and off', async ({ browser }) => {
    test.setTimeout(120_000);
    const ownerContext = await browser.newContext({ baseURL: server.baseURL });
    const owner = await ownerContext.newPage();
    await signUp(ownerContext, uniqueEmail('owner'));

    // The spec's texts before anything is saved.
    const before = await readerPage(browser, false, '/about');
    await expect(before.getByText('This site began in 2024 as a university computer-science project.', { exact: false })).toBeVisible();

    await hydrated(owner, '/admin/pages');
    await expect(owner.getByRole('heading', { level: 2, name: 'Pages' })).toBeVisible();
    const about = owner.getByRole('form', { name: 'About' });
    await expect(about.getByLabel('Page text')).toHaveValue(/began in 2024/);
    await about.getByLabel('Page text').fill('Harbour Notes is written by the **harbour club**.\n\n## Terms\n\nBe kind.');
    await about.getByRole('button', { name: 'Preview' }).click();
    await expect(about.getByRole('region', { name: 'Preview' }).locator('strong')).toHaveText('harbour club');
    await about.getByRole('button', { name: 'Save page' }).click();
    await expect(about.getByRole('status')).toHaveText('The About page is saved.');

    const faq = owner.getByRole('form', { name: 'Support questions' });
    await faq.getByRole('button', { name: 'Add a question' }).click();
    await faq.getByLabel('Question 6').fill('When is the harbour open?');
    await faq.getByLabel('Answer 6').fill('From *dawn* to dusk.');
    for (let at = 6; at > 1; at--) await faq.getByRole('button', { name: `Move question ${at} up` }).click();
    await faq.getByRole('button', { name: 'Remove question 6' }).click();
    await faq.getByRole('button', { name: 'Save page' }).click();
    await expect(faq.getByRole('status')).toHaveText('The Support page’s questions are saved.');

    const newPage = owner.getByRole('form', { name: 'New page' });
    await newPage.getByLabel('Title').fill('Opening hours');
    await newPage.getByLabel('Address').fill('Opening Hours');
    await newPage.getByLabel('Page text').fill('Open **9 to 5**.');
    await newPage.getByRole('button', { name: 'New page' }).click();
    await expect(newPage.getByRole('alert')).toContainText('lowercase letters and digits joined by hyphens');
    await newPage.getByLabel('Address').fill('opening-hours');
    await newPage.getByRole('button', { name: 'New page' }).click();
    await expect(owner.getByRole('link', { name: '/page/opening-hours' })).toBeVisible();

    for (const javaScriptEnabled of [false, true]) {
      const aboutPage = await readerPage(browser, javaScriptEnabled, '/about');
      await expect(aboutPage.locator('article strong')).toHaveText('harbour club');
      await expect(aboutPage.getByText('university computer-science project')).toHaveCount(0);

      const support = await readerPage(browser, javaScriptEnabled, '/support');
      const questions = support.locator('.accordion-header');
      await expect(questions.first()).toHaveText('When is the harbour open?');
      await expect(questions).toHaveCount(5);
      await expect(support.getByText('How do I delete my data?')).toHaveCount(0);

      const hours = await readerPage(browser, javaScriptEnabled, '/page/opening-hours');
      await expect(hours.getByRole('heading', { level: 1, name: 'Opening hours' })).toBeVisible();
      await expect(hours.locator('article strong')).toHaveText('9 to 5');
      await expect(hours).toHaveTitle(/Opening hours/);
      await hours.context().close();
      await aboutPage.context().close();
      await support.context().close();
    }
  });
});
