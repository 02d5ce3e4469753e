/**
 * Page weight of a first visit: the compressed bytes of the home page's HTML and of every
 * stylesheet, script and module preload it references (images not counted), against the
 * issue's 95 KB budget. Also /viewBlog and /search, for comparison.
 *
 *   BUILD_DIR=dist node --import tsx bench/page-weight.bench.ts      (needs `npm run build` first)
 *
 * Runs the built app on PGlite in a throwaway data folder with 6 blogs with images. Scripts are
 * followed through their static imports (what the browser must fetch before the page runs);
 * chunks loaded on demand by other screens are not counted.
 */
import http from 'node:http';
import zlib from 'node:zlib';
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

/** The bytes on the wire (node:http hands over the body as sent), and the decoded text. */
function transfer(url: string, kind: Transfer['kind']): Promise<{ transfer: Transfer; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': ACCEPT_ENCODING } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          if (response.statusCode !== 200) return reject(new Error(`${url} answered ${response.statusCode}`));
          const body = Buffer.concat(chunks);
          const encoding = response.headers['content-encoding'] ?? 'identity';
          const decoded = encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;
          resolve({ transfer: { url, kind, bytes: body.length, encoding }, text: decoded.toString('utf8') });
        });
      })
      .on('error', reject);
  });
}

/** Static imports of a built chunk (`import … from "./x.js"` and bare `import "./x.js"`). */
function staticImports(code: string, base: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.js)["']/g)) {
    found.add(new URL(match[1]!, base).href);
  }
  return [...found];
}

async function pageWeight(pageUrl: string): Promise<Transfer[]> {
  const transfers: Transfer[] = [];
  const page = await transfer(pageUrl, 'html');
  transfers.push(page.transfer);
  const seen = new Set<string>();
  const queue: Array<{ url: string; kind: 'css' | 'js' }> = [];
  for (const match of page.text.matchAll(/<link[^>]+rel="(stylesheet|modulepreload)"[^>]*>/g)) {
    const href = /href="([^"]+)"/.exec(match[0])?.[1];
    if (href) queue.push({ url: new URL(href, pageUrl).href, kind: match[1] === 'stylesheet' ? 'css' : 'js' });
  }
  for (const match of page.text.matchAll(/<script[^>]+src="([^"]+)"/g)) queue.push({ url: new URL(match[1]!, pageUrl).href, kind: 'js' });
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (seen.has(next.url)) continue;
    seen.add(next.url);
    const fetched = await transfer(next.url, next.kind);
    transfers.push(fetched.transfer);
    if (next.kind === 'js') for (const url of staticImports(fetched.text, next.url)) queue.push({ url, kind: 'js' });
  }
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
      const transfers = await pageWeight(url);
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
