import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config';
import { solidPng } from '../../src/server/testing/image-fixtures';
import { expect, signUpVerified, test } from './support/fixtures';

/** Letters only, so each test's titles share a word no other test uses. */
const uniqueWord = () =>
  Array.from({ length: 10 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

async function createWithImage(request: APIRequestContext, title: string, width: number, height: number): Promise<{ id: string }> {
  const response = await request.post('/api/blogs', {
    multipart: {
      title,
      blog: `Content of ${title}`,
      image: { name: 'photo.png', mimeType: 'image/png', buffer: await solidPng(width, height) },
    },
    headers: { origin: E2E_BASE_URL },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string };
}

const blogImages = (page: Page) => page.locator('main article img');

test.describe('images sized for the screen', () => {
  test('the blog page offers every stored width, with the image size set', async ({ page, context }) => {
    await signUpVerified(context);
    const title = `Harbour at dawn ${uniqueWord()}`;
    const blog = await createWithImage(context.request, title, 2400, 1200);

    await page.goto(`/viewBlog?id=${blog.id}`);
    const image = page.getByRole('img', { name: `Image of the blog ${title}` });
    await expect(image).toBeVisible();
    const srcset = (await image.getAttribute('srcset')) ?? '';
    expect(srcset.split(', ').map((candidate) => candidate.split(' ')[1])).toEqual(['480w', '960w', '1600w']);
    await expect(image).toHaveAttribute('width', '1600');
    await expect(image).toHaveAttribute('height', '800');
    // The article's column: 672 px from the md breakpoint up.
    await expect(image).toHaveAttribute('sizes', /\(min-width: 768px\) 672px/);
    await expect(image).toHaveAttribute('fetchpriority', 'high');
    // The browser picked a file from the srcset, and it loaded.
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.currentSrc)).toMatch(/\.webp$/);
  });

  test('the first search result loads its image first, the others lazily', async ({ page, context }) => {
    await signUpVerified(context);
    const word = uniqueWord();
    for (const [n, width] of [[1, 1200], [2, 800], [3, 500]] as const) {
      await createWithImage(context.request, `${word} picture ${n}`, width, 600);
    }

    await page.goto(`/search?searchTerm=${word}`);
    await expect(page.getByText(`3 blogs matched the search term ${word}`)).toBeVisible();
    await expect(blogImages(page)).toHaveCount(3);
    await expect(blogImages(page).first()).toHaveAttribute('fetchpriority', 'high');
    await expect(blogImages(page).first()).toHaveAttribute('loading', 'eager');
    for (const index of [1, 2]) {
      await expect(blogImages(page).nth(index)).toHaveAttribute('loading', 'lazy');
      await expect(blogImages(page).nth(index)).not.toHaveAttribute('fetchpriority', /.*/);
      await expect(blogImages(page).nth(index)).toHaveAttribute('srcset', / 480w, /);
    }
  });
});
