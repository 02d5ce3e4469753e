/**
 * Page weight of a first visit: the compressed bytes of the home page's HTML and of every
 * stylesheet, script and module preload it references (images not counted), against the
 * issue's 95 KB budget. Also /viewBlog and /search, for comparison.
 *
 *   BUILD_DIR=dist node --import tsx bench/page-weight.bench.ts      (needs `npm run build` first)
 *
 * Runs the built app on PGlite in a throwaway data folder with 6 blogs with images, and opens
 * each page once in Chromium (CHROME_PATH, default /usr/bin/chromium) with an empty cache,
 * counting what it fetched until the page had hydrated and the network was quiet. Chunks loaded
 * on demand by other screens are not counted.
 */
import { chromium, type Browser } from '@playwright/test';
import { startSeededSite } from './support/seeded-site.js';
import type { Cleanups } from './support/bench-processes.js';

const BUDGET_BYTES = 95 * 1024;
const ACCEPT_ENCODING = 'br, gzip';

interface Transfer {
  url: string;
  kind: 'html' | 'css' | 'js';
  bytes: number;
  encoding: string;
}

/**
 * Everything a first visit fetches until the page has hydrated and the network is quiet, as
 * Chromium saw it: the HTML and every stylesheet and script, including the chunks the entry
 * loads for the screen before hydrating. `sizes().responseBodySize` is the encoded (compressed)
 * body, as transferred.
 */
async function pageWeight(browser: Browser, pageUrl: string): Promise<Transfer[]> {
  const context = await browser.newContext({ extraHTTPHeaders: { 'accept-encoding': ACCEPT_ENCODING } });
  const page = await context.newPage();
  const pending: Array<Promise<Transfer | undefined>> = [];
  page.on('requestfinished', (request) => {
    const kind = ({ document: 'html', stylesheet: 'css', script: 'js' } as const)[request.resourceType() as 'document' | 'stylesheet' | 'script'];
    if (!kind) return;
    pending.push(
      Promise.all([request.sizes(), request.response()]).then(([sizes, response]) => ({
        url: request.url(),
        kind,
        bytes: sizes.responseBodySize,
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
  return { html: sum('html'), css: sum('css'), js: sum('js'), total: sum(), files: transfers.length };
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
    console.log(`Compressed bytes of a first visit (accept-encoding: ${ACCEPT_ENCODING}; images not counted)\n`);
    console.log('| page | HTML | CSS | JS | total | files |');
    console.log('|---|---|---|---|---|---|');
    let homeTotal = 0;
    for (const [name, url] of Object.entries(pages)) {
      const transfers = await pageWeight(browser, url);
      const s = summarise(transfers);
      if (name === '/') {
        homeTotal = s.total;
        for (const t of transfers) console.error(`  ${t.kind.padEnd(4)} ${String(t.bytes).padStart(7)} ${t.encoding.padEnd(8)} ${new URL(t.url).pathname}`);
      }
      console.log(`| \`${name}\` | ${kb(s.html)} | ${kb(s.css)} | ${kb(s.js)} | ${kb(s.total)} | ${s.files} |`);
    }
    console.log(`\nHome page: ${kb(homeTotal)} of a ${kb(BUDGET_BYTES)} budget: ${homeTotal <= BUDGET_BYTES ? 'within' : 'OVER'}.`);
  } finally {
    for (const step of cleanups.reverse()) await step();
  }
}

await main();
