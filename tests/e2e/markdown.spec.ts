import AxeBuilder from '@axe-core/playwright';
import { expect, signUpVerified, submitNewBlog, test } from './support/fixtures';

const unique = () => Math.random().toString(36).slice(2, 8);

test('a blog written in Markdown shows formatted, highlighted and without scripts', async ({ page, context }) => {
  await signUpVerified(context);
  const title = `Markdown post ${unique()}`;
  const content = [
    '## A section',
    '',
    'Some **bold words** and a [link out](https://example.com/page).',
    '<script>window.__fromBlog = true</script>',
    '',
    '```js',
    'const answer = 42;',
    '```',
    '',
    '- [x] written',
    '- [ ] published',
    '',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
  ].join('\n');

  await page.goto('/create');
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Content').fill(content);
  const id = await submitNewBlog(page);

  await page.goto(`/viewBlog?id=${id}`);
  const body = page.locator('main article .blog-body');
  // The title stays the page's only h1; the Markdown's `##` sits below it.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(body.getByRole('heading', { level: 3, name: 'A section' })).toBeVisible();
  await expect(body.locator('strong')).toHaveText('bold words');
  const link = body.getByRole('link', { name: 'link out' });
  await expect(link).toHaveAttribute('href', 'https://example.com/page');
  await expect(link).toHaveAttribute('rel', 'nofollow ugc noopener');
  await expect(body.locator('pre code.hljs.language-js')).toContainText('const answer = 42;');
  await expect(body.locator('pre code .hljs-keyword')).toHaveText('const');
  await expect(body.locator('pre code .hljs-number')).toHaveText('42');
  await expect(body.getByRole('checkbox')).toHaveCount(2);
  await expect(body.getByRole('checkbox').first()).toBeChecked();
  await expect(body.getByRole('checkbox').first()).toBeDisabled();
  await expect(body.getByRole('table')).toContainText('2');

  // The script tag is shown as text, never run.
  await expect(body).toContainText('<script>window.__fromBlog = true</script>');
  await expect(body.locator('script')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __fromBlog?: boolean }).__fromBlog)).toBeUndefined();

  const results = await new AxeBuilder({ page }).include('main article').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});
