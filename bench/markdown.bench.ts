/**
 * Markdown rendering benchmark: the time `renderMarkdown` (parse, highlight, sanitise, excerpt and
 * word count) takes for a realistic post at the API's length limit, for a 100 KB post, and for
 * hostile inputs. Blogs are rendered once per save, so this is the extra cost of a write.
 *
 *   node --import tsx bench/markdown.bench.ts
 */
import { performance } from 'node:perf_hooks';
import { BLOG_MAX_LENGTH } from '../src/shared/constants.js';
import { renderMarkdown } from '../src/server/markdown/render-markdown.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const options = { imagePrefixes: ['/uploads/'] };

const section = [
  '## A section',
  '',
  'Some *text* with **bold**, a [link](https://example.com/page) and `inline code`.',
  'A second line with www.example.org in it, and ~~a correction~~.',
  '',
  '- an item',
  '- [x] a done task',
  '',
  '| name | value |',
  '|---|--:|',
  '| one | 1 |',
  '',
  '```ts',
  'const answer: number = 42;',
  'function size(x: string) { return x.length; } // why not',
  '```',
  '',
  '> a quote',
  '',
  '![a picture](/uploads/blogs/picture-1.webp)',
  '',
  '',
].join('\n');
const postOf = (length: number) => section.repeat(Math.ceil(length / section.length)).slice(0, length);

const cases: Array<[string, string]> = [
  ['first render after start (module set-up)', 'warm **up**\n```js\nx\n```'],
  ['short post (1 KB)', postOf(1_000)],
  [`post at the API limit (${BLOG_MAX_LENGTH / 1000} KB)`, postOf(BLOG_MAX_LENGTH)],
  ['100 KB post', postOf(100_000)],
  ['100 KB of prose only', 'Plain words of prose, one after another. '.repeat(2_500)],
  ['1 MB of `[`', '['.repeat(1024 * 1024)],
  ['nested emphasis bomb (40 KB)', `${'*'.repeat(20_000)}a${'*'.repeat(20_000)}`],
  ['2,000-deep nested list', Array.from({ length: 2_000 }, (_, i) => `${'  '.repeat(i)}- ${i}`).join('\n')],
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

console.log(`| input | size | p50 | p95 |\n|---|---|---|---|`);
for (const [name, source] of cases) {
  const once = name.startsWith('first');
  const times: number[] = [];
  for (let i = 0; i < (once ? 1 : RUNS); i++) {
    const started = performance.now();
    renderMarkdown(source, options);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const size = source.length >= 1024 * 1024 ? `${(source.length / 1024 / 1024).toFixed(0)} MB` : `${(source.length / 1000).toFixed(1)} KB`;
  console.log(`| ${name} | ${size} | ${percentile(times, 50).toFixed(1)} ms | ${once ? '' : `${percentile(times, 95).toFixed(1)} ms`} |`);
}
