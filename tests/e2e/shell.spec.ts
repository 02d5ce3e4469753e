import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './support/fixtures';

// `/viewBlog` without an id answers 404 ('This blog does not exist'), see server-rendering.spec.ts.
const ROUTES = ['/', '/create', '/edit', '/about', '/auth', '/support', '/settings', '/search', '/ai'];

test.describe('site shell', () => {
  test('every route of the spec answers with the app, and unknown paths show the not-found screen', async ({ page }) => {
    for (const route of ROUTES) {
      const response = await page.goto(route);
      expect(response?.status(), route).toBe(200);
      await expect(page.getByRole('navigation').first()).toBeVisible();
      await expect(page.getByText('The Page you are looking for does not exist')).toHaveCount(0);
    }
    const unknown = await page.goto('/no/such/page');
    expect(unknown?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'The Page you are looking for does not exist' })).toBeVisible();
  });

  test('the navbar links, the More menu and the footer', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation').first();
    await nav.getByRole('link', { name: 'About' }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole('heading', { name: 'About us' })).toBeVisible();
    await nav.getByRole('button', { name: 'More' }).click();
    await expect(page.getByRole('link', { name: 'Create a Blog' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Login or Register' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Tip jar/ })).toHaveAttribute('target', '_blank');
    await page.getByRole('link', { name: 'Support' }).first().click();
    await expect(page).toHaveURL(/\/support$/);

    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText(String(new Date().getFullYear()));
    await expect(footer).toContainText('©');
    for (const name of ['Home', 'About', 'Log in or Register', 'Support']) {
      await expect(footer.getByRole('link', { name })).toBeVisible();
    }
    await footer.getByRole('link', { name: 'Log in or Register' }).click();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('the search box runs on the button and on Enter, and does nothing for an empty term', async ({ page }) => {
    await page.goto('/about');
    const box = page.getByRole('searchbox', { name: 'Search' });
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/\/about$/);
    await box.fill('   ');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/about$/);
    await box.fill('hello world');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/search\?searchTerm=hello%20world$/);
    await page.goto('/about');
    await box.fill('cats & dogs');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/\/search\?searchTerm=cats%20%26%20dogs$/);
  });

  test('the FAQ accordion opens its five entries', async ({ page }) => {
    await page.goto('/support');
    const headers = page.locator('.accordion-button');
    await expect(headers).toHaveCount(5);
    await page.getByRole('button', { name: 'Is the site free?' }).click();
    await expect(page.getByText('Reading, writing, voting and the AI Blog Generator are all free.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Is the site free?' })).toHaveAttribute('aria-expanded', 'true');
  });

  test('the contact form validates, sends, and reports a failure in a popup', async ({ page }) => {
    await page.goto('/support');
    const submit = page.getByRole('button', { name: 'Submit' });
    await submit.click();
    await expect(page.getByText('Add an email!')).toBeVisible();
    await expect(page.getByText('Add a message!')).toBeVisible();
    await expect(page.getByLabel('Email address')).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('Email address').fill('reader@example.com');
    await page.getByLabel('Your Message').fill('Hello from the end-to-end test.');
    await submit.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Thank you! Your message has been sent.');
    await dialog.getByRole('button', { name: 'Okay' }).click();
    await expect(dialog).toBeHidden();
    const again = page.getByRole('button', { name: 'send message' });
    await expect(again).toBeEnabled();

    // The per-client limit is 5 messages in 10 minutes: the sixth fails, and says why.
    for (let i = 0; i < 5; i++) {
      await page.getByLabel('Your Message').fill(`Message ${i}`);
      await again.click();
      await expect(dialog).toBeVisible();
      if (i < 4) {
        await expect(dialog).toContainText('Thank you!');
        await dialog.getByRole('button', { name: 'Okay' }).click();
      }
    }
    await expect(dialog.getByRole('heading', { name: 'An error occurred' })).toBeVisible();
    await expect(dialog).toContainText('Please wait a few minutes');
  });

  test('at phone width the navbar collapses behind a toggle', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Toggle navigation' });
    await expect(toggle).toBeVisible();
    await expect(page.locator('#main-navbar')).toBeHidden();
    await toggle.click();
    await expect(page.locator('#main-navbar')).toBeVisible();
    await page.getByRole('navigation').first().getByRole('link', { name: 'About' }).click();
    await expect(page).toHaveURL(/\/about$/);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByRole('button', { name: 'Toggle navigation' })).toBeHidden();
  });

  test('the static pages pass an axe check with no serious violations', async ({ page }) => {
    for (const route of ['/about', '/support', '/nope']) {
      await page.goto(route);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${route}: ${v.id} ${v.help}`)).toEqual([]);
    }
  });
});
