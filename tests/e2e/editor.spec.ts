import { E2E_BASE_URL } from '../../playwright.config';
import { solidPng } from '../../src/server/testing/image-fixtures';
import { expect, signUpVerified, submitNewBlog, test } from './support/fixtures';

const unique = () => Math.random().toString(36).slice(2, 8);

test('writing with the toolbar and an image inside the text: the preview is the published page', async ({ page, context }) => {
  await signUpVerified(context);
  const title = `Harbour notes ${unique()}`;
  await page.goto('/create');
  await page.getByLabel('Title', { exact: true }).fill(title);
  const content = page.getByLabel('Content');
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });

  // Each format inserts a selected placeholder; typing replaces it.
  await content.click();
  await toolbar.getByRole('button', { name: 'Heading' }).click();
  await page.keyboard.type('Morning');
  await page.keyboard.press('End');
  await page.keyboard.type('\n\nThe sea was ');
  await toolbar.getByRole('button', { name: 'Bold' }).click();
  await page.keyboard.type('calm');
  await page.keyboard.press('End');
  await page.keyboard.type(' and ');
  await page.keyboard.press('ControlOrMeta+i');
  await page.keyboard.type('grey');
  await page.keyboard.press('End');
  await page.keyboard.type('\n\n');
  await expect(content).toHaveValue('# Morning\n\nThe sea was **calm** and _grey_\n\n');

  // The image is uploaded, a description is asked for (empty: never the file's name, issue 58),
  // and its Markdown lands at the cursor with the description as its alt text.
  await page.getByLabel('Insert image').setInputFiles({ name: 'boats.png', mimeType: 'image/png', buffer: await solidPng(800, 500) });
  const description = page.getByRole('textbox', { name: 'Image description' });
  await expect(description).toBeFocused();
  await expect(description).toHaveValue('');
  await expect(content).toHaveValue('# Morning\n\nThe sea was **calm** and _grey_\n\n');
  await description.fill('Two boats at the harbour wall');
  await page.getByRole('button', { name: 'Insert the image' }).click();
  await expect(description).toHaveCount(0);
  await expect(content).toHaveValue(/^# Morning\n\nThe sea was \*\*calm\*\* and _grey_\n\n!\[Two boats at the harbour wall\]\(\/uploads\/blogs\/boats-[^)]+\.webp\)$/);

  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('region', { name: 'Preview' }).locator('.blog-body');
  await expect(preview.getByRole('heading', { level: 2, name: 'Morning' })).toBeVisible();
  await expect(preview.locator('strong')).toHaveText('calm');
  await expect(preview.locator('em')).toHaveText('grey');
  await expect(preview.getByRole('img', { name: 'Two boats at the harbour wall' })).toBeVisible();
  await expect(content).toBeHidden();
  const previewHtml = await preview.innerHTML();
  await page.getByRole('button', { name: 'Write' }).click();
  await expect(content).toBeVisible();

  const id = await submitNewBlog(page);
  // The card's excerpt is the prose: the image's description stays on the page, out of the excerpt.
  expect(((await (await context.request.get(`/api/blogs/${id}`)).json()) as { excerpt: string }).excerpt).toBe('Morning. The sea was calm and grey');

  await page.goto(`/viewBlog?id=${id}`);
  const body = page.locator('main article .blog-body');
  await expect(body.getByRole('heading', { level: 2, name: 'Morning' })).toBeVisible();
  await expect(body.locator('strong')).toHaveText('calm');
  expect(await body.innerHTML()).toBe(previewHtml);
  // The picture is served by this site and really loads (the CSP allows only the site's images).
  const picture = body.getByRole('img', { name: 'Two boats at the harbour wall' });
  await expect(picture).toHaveAttribute('width', '800');
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(800);
  expect(new URL(await picture.evaluate((img: HTMLImageElement) => img.currentSrc)).origin).toBe(new URL(E2E_BASE_URL).origin);
});

test("'Remove image' on /edit takes the cover image off and keeps the text being written", async ({ page, context }) => {
  await signUpVerified(context);
  const title = `Covered ${unique()}`;
  const response = await context.request.post('/api/blogs', {
    multipart: { title, blog: 'Text', image: { name: 'cover.png', mimeType: 'image/png', buffer: await solidPng(900, 600) } },
    headers: { origin: E2E_BASE_URL },
  });
  expect(response.status(), await response.text()).toBe(201);
  const blog = (await response.json()) as { id: string; imageUrl: string };

  await page.goto(`/edit?id=${blog.id}`);
  await page.getByLabel('Content').fill('Unsaved words');
  await expect(page.getByRole('img', { name: "The blog's current image" })).toBeVisible();
  await page.getByRole('button', { name: 'Remove image' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('img', { name: "The blog's current image" })).toHaveCount(0);
  await expect(page.getByLabel('Content')).toHaveValue('Unsaved words');
  // The files are gone, and the blog's page shows no image.
  expect((await context.request.get(blog.imageUrl)).status()).toBe(404);
  await page.goto(`/viewBlog?id=${blog.id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.locator('main article img')).toHaveCount(0);
});
