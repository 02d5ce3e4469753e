import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config';
import { expect, signUpVerified, submitNewBlog, test } from './support/fixtures';

/** Letters only: a tag (and a title word) no other test uses. */
const uniqueWord = () => Array.from({ length: 10 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

async function createBlog(request: APIRequestContext, fields: { title: string; blog?: string; tags?: string; status?: string }): Promise<{ id: string }> {
  const response = await request.post('/api/blogs', {
    multipart: { blog: `Content of ${fields.title}`, ...fields },
    headers: { origin: E2E_BASE_URL },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string };
}

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} ${v.help}`)).toEqual([]);
}

/** Every id on the page is unique (the HTML checker's first complaint when a list repeats a component). */
async function expectUniqueIds(page: Page) {
  const ids = await page.locator('[id]').evaluateAll((elements) => elements.map((element) => element.id));
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
}

const cards = (page: Page) => page.locator('main article');
const pageNumber = (page: Page) => page.getByRole('navigation', { name: 'Pages' }).locator('[aria-current="page"]');

test.describe('tags', () => {
  test('written on /create with suggestions from existing tags, shown on cards and the blog page as links to the tag page', async ({ page, context }) => {
    await signUpVerified(context);
    const existing = `${uniqueWord()}-notes`;
    const fresh = uniqueWord();
    await createBlog(context.request, { title: `Earlier ${fresh}`, tags: existing });

    await page.goto('/create');
    await page.getByLabel('Title').fill(`Tagged ${fresh}`);
    await page.getByLabel('Content').fill('A blog with tags.');
    const tags = page.getByLabel('Tags', { exact: true });
    await tags.fill(`${fresh}, ${existing.slice(0, 6).toUpperCase()}`);
    // The existing tag is offered for what is being typed; choosing it completes the field.
    const suggestions = page.getByRole('group', { name: 'Suggested tags' });
    await suggestions.getByRole('button', { name: `${existing} (1)` }).click();
    await expect(tags).toHaveValue(`${fresh}, ${existing}, `);
    await expect(tags).toBeFocused();
    const id = await submitNewBlog(page);

    await page.goto(`/viewBlog?id=${id}`);
    const onPage = page.getByRole('list', { name: 'Tags' });
    await expect(onPage.getByRole('link')).toHaveText([`#${fresh}`, `#${existing}`]);
    await expectNoSeriousAxeViolations(page);
    await onPage.getByRole('link', { name: `#${existing}` }).click();
    await expect(page).toHaveURL(`${E2E_BASE_URL}/tag?name=${existing}`);
    await expect(page.getByRole('heading', { level: 1, name: `Blogs tagged ${existing}` })).toBeVisible();
    await expect(cards(page)).toHaveCount(2);
    // The card keeps the spec's parts and adds the tags.
    const card = cards(page).filter({ has: page.getByRole('heading', { name: `Tagged ${fresh}` }) });
    await expect(card).toContainText('Author: ');
    await expect(card).toContainText('A blog with tags.');
    await expect(card.getByRole('link', { name: 'View this Blog' })).toBeVisible();
    await expect(card).toContainText('Upvote Count: 0');
    await expect(card).toContainText('Downvote Count: 0');
    await expect(card).toContainText(/Created \d{4}-\d{2}-\d{2}/);
    await expect(card.getByRole('list', { name: 'Tags' }).getByRole('link')).toHaveText([`#${fresh}`, `#${existing}`]);
    await expectNoSeriousAxeViolations(page);
    await expectUniqueIds(page);
  });

  test('refuses tags that are not lowercase words joined by hyphens, and a sixth tag, marking the field', async ({ page, context }) => {
    await signUpVerified(context);
    await page.goto('/create');
    await page.getByLabel('Title').fill('Bad tags');
    await page.getByLabel('Content').fill('Text.');
    await page.getByLabel('Tags', { exact: true }).fill('good, not_good');
    await page.getByRole('button', { name: 'Submit' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('"not_good" is not a tag');
    await dialog.getByRole('button', { name: 'Okay' }).click();
    await expect(page.getByLabel('Tags', { exact: true })).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('Tags', { exact: true }).fill('a b c d e f');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog).toContainText('Add at most 5 tags.');
    await dialog.getByRole('button', { name: 'Okay' }).click();
    await expect(page).toHaveURL(/\/(create|edit\?id=)/);
  });

  test('/edit shows the tags and changes them', async ({ page, context }) => {
    await signUpVerified(context);
    const tag = uniqueWord();
    const { id } = await createBlog(context.request, { title: `Edit ${tag}`, tags: `${tag} first` });
    await page.goto(`/edit?id=${id}`);
    await expect(page.getByLabel('Tags', { exact: true })).toHaveValue(`${tag}, first`);
    await page.getByLabel('Tags', { exact: true }).fill(`${tag}-second`);
    await page.getByRole('button', { name: 'Update' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Blog Updated!');
    await dialog.getByRole('button', { name: 'Okay' }).click();
    await page.goto(`/viewBlog?id=${id}`);
    await expect(page.getByRole('list', { name: 'Tags' }).getByRole('link')).toHaveText([`#${tag}-second`]);
  });

  test('a tag page: Top, New and Hot, 5 a page with the pager, its feeds, and a title and canonical URL of its own', async ({ page, context }) => {
    await signUpVerified(context);
    const tag = uniqueWord();
    for (let i = 0; i < 7; i++) await createBlog(context.request, { title: `${tag} number ${i}`, tags: tag });
    await createBlog(context.request, { title: `${tag} draft`, tags: tag, status: 'draft' });
    await context.clearCookies();

    await page.goto(`/tag?name=${tag}`);
    await expect(page).toHaveTitle(`Blogs tagged ${tag} · Blogging Site`);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${E2E_BASE_URL}/tag?name=${tag}`);
    await expect(page.locator(`link[rel="alternate"][type="application/rss+xml"][href="${E2E_BASE_URL}/rss.xml?tag=${tag}"]`)).toHaveCount(1);
    await expect(cards(page)).toHaveCount(5);
    await expect(page.getByText(`${tag} draft`)).toHaveCount(0);
    await expect(pageNumber(page)).toHaveText('Page 1');
    const orders = page.getByRole('navigation', { name: 'Order of the blogs' });
    await expect(orders.getByRole('link', { name: 'Top' })).toHaveAttribute('aria-current', 'page');

    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(`${E2E_BASE_URL}/tag?name=${tag}&page=2`);
    await expect(cards(page)).toHaveCount(2);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('dialog')).toContainText('You are already on the last page');
    await page.getByRole('dialog').getByRole('button', { name: 'Okay' }).click();
    // The dialog fades out before it lets go of the page: a click meanwhile can land on its backdrop (failed once, passed on its retry).
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await orders.getByRole('link', { name: 'New' }).click();
    await expect(page).toHaveURL(`${E2E_BASE_URL}/tag?name=${tag}&sort=new`);
    await expect(cards(page).first().getByRole('heading')).toHaveText(`${tag} number 6`);
    await expect(page).toHaveTitle(`Blogs tagged ${tag} (New) · Blogging Site`);
    await orders.getByRole('link', { name: 'Hot' }).click();
    await expect(page).toHaveURL(`${E2E_BASE_URL}/tag?name=${tag}&sort=hot`);
    await expect(cards(page)).toHaveCount(5);
    await expectNoSeriousAxeViolations(page);

    const rss = await page.request.get(`/rss.xml?tag=${tag}`);
    expect(rss.status()).toBe(200);
    expect((await rss.text()).match(/<item>/g)).toHaveLength(7);
    await page.getByRole('link', { name: 'All tags' }).click();
    await expect(page).toHaveURL(`${E2E_BASE_URL}/tags`);
  });

  test('a tag page is readable from the HTML alone; a tag no public blog carries answers 404', async ({ browser, context }) => {
    await signUpVerified(context);
    const tag = uniqueWord();
    await createBlog(context.request, { title: `${tag} in HTML`, blog: 'Readable without scripts.', tags: tag });
    const hidden = uniqueWord();
    await createBlog(context.request, { title: `${hidden} draft`, tags: hidden, status: 'draft' });

    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const page = await noScript.newPage();
    const response = await page.goto(`${E2E_BASE_URL}/tag?name=${tag.toUpperCase()}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: `Blogs tagged ${tag}` })).toBeVisible();
    await expect(page.getByRole('heading', { name: `${tag} in HTML` })).toBeVisible();
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${E2E_BASE_URL}/tag?name=${tag}`);

    for (const name of [hidden, uniqueWord(), 'Not_A_Tag']) {
      const missing = await page.goto(`${E2E_BASE_URL}/tag?name=${name}`);
      expect(missing?.status(), name).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(name === 'Not_A_Tag' ? 'There is no such tag' : `There are no blogs tagged ${name}`);
    }
    await noScript.close();
  });

  test('/tags lists the tags by number of public blogs, each a link to its page', async ({ page, context }) => {
    await signUpVerified(context);
    const many = uniqueWord();
    const few = uniqueWord();
    for (let i = 0; i < 3; i++) await createBlog(context.request, { title: `Many ${i}`, tags: many });
    await createBlog(context.request, { title: 'Few', tags: few });
    await createBlog(context.request, { title: 'Few draft', tags: few, status: 'draft' });

    await page.goto('/tags');
    await expect(page).toHaveTitle('Tags · Blogging Site');
    await expect(page.getByRole('heading', { level: 1, name: 'Tags' })).toBeVisible();
    const manyLink = page.getByRole('link', { name: `#${many} 3 blogs` });
    const fewLink = page.getByRole('link', { name: `#${few} 1 blog`, exact: true });
    await expect(manyLink).toBeVisible();
    await expect(fewLink).toBeVisible();
    await expectNoSeriousAxeViolations(page);
    await expectUniqueIds(page);
    await fewLink.click();
    await expect(page).toHaveURL(`${E2E_BASE_URL}/tag?name=${few}`);
    await expect(cards(page)).toHaveCount(1);
  });

  test('tag pages hydrate without a warning and do not move while they load', async ({ page, context }) => {
    await signUpVerified(context);
    const tag = uniqueWord();
    for (let i = 0; i < 3; i++) await createBlog(context.request, { title: `${tag} steady ${i}`, tags: tag });
    await context.clearCookies();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    await page.addInitScript(() => {
      (window as unknown as { __shift: number }).__shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
          if (!entry.hadRecentInput) (window as unknown as { __shift: number }).__shift += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    for (const path of [`/tag?name=${tag}`, '/tags']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift), path).toBeLessThan(0.02);
    }
    expect(problems).toEqual([]);
  });
});
