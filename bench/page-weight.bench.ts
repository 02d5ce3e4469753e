/**
 * Page weight of an anonymous first visit to `/`, `/viewBlog` and `/search`: the bytes on the
 * wire (headers included) of every response but images, and how many responses, against
 * issue 23's budget of 35 KB in at most 6 responses per page.
 *
 *   BUILD_DIR=dist node --import tsx bench/page-weight.bench.ts      (needs `npm run build` first)
 *
 * Runs the built app on PGlite in a throwaway data folder with 6 blogs with images, and opens
 * each page once in Chromium (CHROME_PATH, default /usr/bin/chromium) with an empty cache,
 * counting what it fetched until the network was quiet, without touching the page: what a
 * reader downloads before they interact (the app's script then loads on their first touch, see
 * docs/page-weight.md). Chunks loaded on demand by other screens are not counted.
 */
import { chromium, type Browser } from '@playwright/test';
import { startSeededSite } from './support/seeded-site.js';
import type { Cleanups } from './support/bench-processes.js';

const BUDGET_BYTES = 35 * 1024;
const BUDGET_RESPONSES = 6;
const ACCEPT_ENCODING = 'br, gzip';

interface Transfer {
  url: string;
  kind: 'html' | 'css' | 'js' | 'other';
  bytes: number;
  encoding: string;
}

/**
 * Everything a first visit fetches until the network is quiet, as Chromium saw it, images left
 * out: the HTML, stylesheets, scripts and anything else. `sizes()` gives the encoded
 * (compressed) body as transferred and the response's headers.
 */
async function pageWeight(browser: Browser, pageUrl: string): Promise<Transfer[]> {
  const context = await browser.newContext({ extraHTTPHeaders: { 'accept-encoding': ACCEPT_ENCODING } });
  const page = await context.newPage();
  const pending: Array<Promise<Transfer | undefined>> = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() === 'image') return;
    const kind = ({ document: 'html', stylesheet: 'css', script: 'js' } as const)[request.resourceType() as 'document' | 'stylesheet' | 'script'] ?? 'other';
    pending.push(
      Promise.all([request.sizes(), request.response()]).then(([sizes, response]) => ({
        url: request.url(),
        kind,
        bytes: sizes.responseBodySize + sizes.responseHeadersSize,
        encoding: response?.headers()['content-encoding'] ?? 'identity',
      })),
    );
  });
  await page.goto(pageUrl, { waitUntil: 'networkidle' });
  const transfers = (await Promise.all(pending)).filter((t): t is Transfer => t !== undefined);
  await context.close();
  return transfers;
}

function summarise(transfers: Transfer[]) {
  const sum = (kind?: Transfer['kind']) => transfers.filter((t) => !kind || t.kind === kind).reduce((total, t) => total + t.bytes, 0);
  return { html: sum('html'), css: sum('css'), js: sum('js'), other: sum('other'), total: sum(), files: transfers.length };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  const cleanups: Cleanups = [];
  try {
    const site = await startSeededSite(cleanups);
    const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    cleanups.push(() => browser.close());
    const pages = {
      '/': `${site.baseUrl}/`,
      '/viewBlog': `${site.baseUrl}/viewBlog?id=${site.blogId}`,
      '/search': `${site.baseUrl}/search?searchTerm=${site.searchTerm}`,
    };
    console.log(`Bytes on the wire of an anonymous first visit, headers included (accept-encoding: ${ACCEPT_ENCODING}; images not counted)\n`);
    console.log('| page | HTML | CSS | JS | other | total | responses |');
    console.log('|---|---|---|---|---|---|---|');
    const misses: string[] = [];
    for (const [name, url] of Object.entries(pages)) {
      const transfers = await pageWeight(browser, url);
      const s = summarise(transfers);
      for (const t of transfers) console.error(`  ${name} ${t.kind.padEnd(5)} ${String(t.bytes).padStart(7)} ${t.encoding.padEnd(8)} ${new URL(t.url).pathname}`);
      console.log(`| \`${name}\` | ${kb(s.html)} | ${kb(s.css)} | ${kb(s.js)} | ${kb(s.other)} | ${kb(s.total)} | ${s.files} |`);
      if (s.total > BUDGET_BYTES || s.files > BUDGET_RESPONSES) misses.push(`${name}: ${kb(s.total)} in ${s.files} responses`);
    }
    console.log(misses.length === 0 ? `\nEvery page within ${kb(BUDGET_BYTES)} and ${BUDGET_RESPONSES} responses.` : `\nOver the budget (${kb(BUDGET_BYTES)}, ${BUDGET_RESPONSES} responses):\n- ${misses.join('\n- ')}`);
  } finally {
    for (const step of cleanups.reverse()) await step();
  }
}

await main();
