import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, signUpVerified, test } from './support/fixtures';

const SLIDES = [
  { title: 'Home', text: 'Go to home page to see other peoples blogs!', href: '/' },
  { title: 'Create a Blog', text: 'Create a new blog and share something great with the World!', href: '/create' },
  { title: 'About', text: 'Go to the about page to learn more about us!', href: '/about' },
  { title: 'Support', text: 'Go to the support page to contact us!', href: '/support' },
  { title: 'Sign Out', text: 'Hope to see you soon!' },
];

/** The slide shown once any transition has finished (the carousel ignores keys and swipes until then). */
async function expectSlide(carousel: Locator, n: number) {
  const active = carousel.locator('.carousel-item.active');
  await expect(active).toHaveCount(1);
  await expect(active).toHaveAttribute('aria-label', `${n} of 5: ${SLIDES[n - 1]!.title}`);
  await expect(carousel).not.toHaveAttribute('aria-busy', 'true');
}

/** A horizontal touch swipe over the carousel, `dx` pixels long (negative: to the left). */
async function swipe(page: Page, dx: number) {
  await page.getByTestId('welcome-carousel').evaluate((element, distance) => {
    const box = element.getBoundingClientRect();
    const y = box.top + box.height / 2;
    const x0 = box.left + box.width / 2;
    const touch = (x: number) => new Touch({ identifier: 1, target: element, clientX: x, clientY: y });
    const fire = (type: string, x: number, active: boolean) =>
      element.dispatchEvent(new TouchEvent(type, { bubbles: true, cancelable: true, touches: active ? [touch(x)] : [], changedTouches: [touch(x)] }));
    fire('touchstart', x0, true);
    fire('touchmove', x0 + distance / 2, true);
    fire('touchmove', x0 + distance, true);
    fire('touchend', x0 + distance, false);
  }, dx);
}

test.describe('the /auth screen of a signed-in user', () => {
  test('welcome, the carousel: slides, auto-advance, keyboard, swipe, and the Sign Out slide', async ({ page, context }) => {
    const { email } = await signUpVerified(context);
    await page.goto('/auth');
    await expect(page.getByRole('heading', { level: 1, name: `Welcome ${email}` })).toBeVisible();
    const shownAt = Date.now();
    await expect(page.getByText('What would you like to do today?', { exact: true })).toBeVisible();

    const carousel = page.getByRole('region', { name: 'What would you like to do today?' });
    const items = carousel.locator('.carousel-item');
    await expect(items).toHaveCount(5);
    for (const [i, slide] of SLIDES.entries()) {
      const item = items.nth(i);
      await expect(item).toContainText(slide.title);
      await expect(item).toContainText(slide.text);
      const image = item.locator('img');
      await expect(image).toHaveAttribute('alt', /\w+/);
      expect(await image.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).toBeGreaterThan(0);
      if (slide.href) await expect(item.getByRole('link', { name: slide.text, includeHidden: true })).toHaveAttribute('href', slide.href);
    }
    await expectSlide(carousel, 1);
    await expect(page.getByRole('link', { name: SLIDES[0]!.text })).toBeVisible();

    // Auto-advance: the next slide after 5000 ms.
    await expect(carousel.locator('.carousel-item.active')).toHaveAttribute('aria-label', /^2 of 5/, { timeout: 9_000 });
    expect(Date.now() - shownAt).toBeGreaterThan(4_000);
    await expectSlide(carousel, 2);

    // Keyboard: arrows move, and wrap around at the ends (auto-advance pauses while focus is inside).
    await carousel.focus();
    await page.keyboard.press('ArrowRight');
    await expectSlide(carousel, 3);
    await page.keyboard.press('ArrowLeft');
    await expectSlide(carousel, 2);
    await page.keyboard.press('ArrowLeft');
    await expectSlide(carousel, 1);
    await page.keyboard.press('ArrowLeft');
    await expectSlide(carousel, 5);
    await page.keyboard.press('ArrowRight');
    await expectSlide(carousel, 1);
    await page.getByRole('button', { name: 'Pause slides' }).click();
    await expect(page.getByRole('button', { name: 'Play slides' })).toBeVisible();

    // Swipes: 40 px or less does nothing; more moves one slide.
    await swipe(page, -30);
    // The page has handled the touches and painted what they changed (a move would show at once as aria-busy).
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await expect(carousel).not.toHaveAttribute('aria-busy', 'true');
    await expectSlide(carousel, 1);
    await swipe(page, -60);
    await expectSlide(carousel, 2);
    await swipe(page, 80);
    await expectSlide(carousel, 1);
    await swipe(page, 80);
    await expectSlide(carousel, 5);

    await carousel.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Login or Register' })).toBeVisible();
    expect((await (await page.request.get('/api/auth/get-session')).json())?.user ?? null).toBeNull();
  });

  test('the account screens pass an axe check with no serious violations', async ({ page, context }) => {
    const check = async (what: string) => {
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${what}: ${v.id} ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    };
    for (const view of ['sign_in', 'magic_link']) {
      await page.goto(`/auth?view=${view}`);
      await expect(page.getByRole('heading', { name: 'Login or Register' })).toBeVisible();
      await check(view);
    }
    await page.goto('/auth?view=update_password&token=abc');
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await check('update_password');
    await page.goto('/settings');
    await expect(page.getByRole('heading', { name: 'Please sign in' })).toBeVisible();

    await signUpVerified(context);
    await page.goto('/auth');
    await expect(page.getByRole('heading', { name: /^Welcome / })).toBeVisible();
    await page.getByRole('button', { name: 'Pause slides' }).click();
    await check('welcome');
    await page.goto('/settings');
    await expect(page.getByRole('button', { name: 'Change Password' })).toBeVisible();
    await check('settings');

    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/auth');
    await expect(page.getByRole('region', { name: 'What would you like to do today?' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
