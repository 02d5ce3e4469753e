/**
 * The README's screenshots: the home page, a blog page and the editor, at desktop (1280 × 800)
 * and phone (375 × 800) widths, written to docs/screenshots/. Remade after a change with
 *
 *   npm run build && npm run screenshots
 *
 * Starts the built app (BUILD_DIR, `dist` by default; nothing is built here) on PGlite in a
 * throwaway data folder on SCREENSHOTS_PORT (3301 by default), seeds five blogs with covers and
 * Markdown bodies, a vote and comments through the API as a browser would, and takes each
 * screenshot in Debian's Chromium (CHROME_PATH, default /usr/bin/chromium) as a signed-in reader.
 * The PNGs are reduced to a palette so the six stay at a few hundred KB together.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import sharp from 'sharp';
import { builtAppEnv, builtServerEntry, root, start, stop, waitFor, type Cleanups } from '../bench/support/bench-processes.js';

const OUT_DIR = path.join(root, 'docs/screenshots');
const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 800 },
} as const;

const BLOGS = [
  {
    title: 'Keeping bees in a city garden',
    hue: 38,
    body: '## Why bees\n\nA hive on a flat roof needs less than most people think: a sheltered corner, water nearby and a neighbour or two who like honey.\n\n- a hive and a frame of comb\n- a veil and gloves\n- patience in the first summer\n\nThe bees do most of the work. Ours made twelve jars in the second year.',
  },
  {
    title: 'A week of walking the coast path',
    hue: 200,
    body: 'Seven days, ninety miles and one pair of boots. The path follows the cliffs from harbour to harbour, and every evening ends in a village with a pub and a bed.\n\n## What to pack\n\nLess than you think. A map, a rain jacket and a flask of tea.',
  },
  {
    title: 'Sourdough without the fuss',
    hue: 20,
    body: 'Flour, water, salt and time. A starter kept in the fridge needs feeding once a week, and a loaf needs ten minutes of work spread over a day.\n\n> The oven does the rest.\n\nBake it hot, with steam for the first twenty minutes.',
  },
  {
    title: 'Notes from a night under dark skies',
    hue: 250,
    body: 'Far from the city lights the Milky Way is bright enough to cast a shadow. We lay on the grass until two and counted eleven meteors.\n\n1. Give your eyes twenty minutes\n2. Use a red torch\n3. Bring a flask',
  },
  {
    title: 'Repairing an old bicycle',
    hue: 140,
    body: 'The frame was sound, so everything else could be replaced: cables, brake pads, a chain and two tyres. It rides better than it did new.\n\n## The one tool worth buying\n\nA good chain tool. Everything else a spanner set will do.',
  },
];

/** A cover: a soft gradient with a sun and hills, so the cropped 16:9 box shows a picture. */
function cover(hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="hsl(${hue},55%,72%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},60%,88%)"/>
    </linearGradient></defs>
    <rect width="1600" height="1000" fill="url(#sky)"/>
    <circle cx="1150" cy="330" r="140" fill="hsl(${(hue + 180) % 360},70%,92%)"/>
    <path d="M0 760 Q 400 560 800 720 T 1600 660 V 1000 H 0 Z" fill="hsl(${hue},35%,42%)"/>
    <path d="M0 860 Q 500 720 1000 850 T 1600 820 V 1000 H 0 Z" fill="hsl(${hue},40%,30%)"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

async function api(baseUrl: string, cookie: string, method: string, url: string, body: FormData | object): Promise<{ id: string }> {
  const json = !(body instanceof FormData);
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { cookie, origin: baseUrl, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(body) : body,
  });
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id: string };
}

async function signUp(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password: 'correct horse battery staple', name: email.split('@')[0] }),
  });
  if (!response.ok) throw new Error(`sign-up answered ${response.status}: ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

/** Five blogs by one author, a vote and two comments by a reader; answers the reader's cookie and the first blog's id. */
async function seed(baseUrl: string): Promise<{ cookie: string; blogId: string }> {
  const author = await signUp(baseUrl, 'ada@example.com');
  const reader = await signUp(baseUrl, 'sam@example.com');
  let blogId = '';
  for (const [i, blog] of BLOGS.entries()) {
    const form = new FormData();
    form.append('title', blog.title);
    form.append('blog', blog.body);
    form.append('image', new Blob([new Uint8Array(await cover(blog.hue))], { type: 'image/jpeg' }), `cover-${i + 1}.jpg`);
    const created = await api(baseUrl, author, 'POST', '/api/blogs', form);
    // The last one written is first in the 'Top' order (rating, then newest), so it is the one opened.
    blogId = created.id;
  }
  await api(baseUrl, reader, 'PUT', `/api/blogs/${blogId}/vote`, { direction: 'up' });
  const comment = await api(baseUrl, reader, 'POST', `/api/blogs/${blogId}/comments`, { body: 'Which chain tool do you use? Mine bends the pins.' });
  await api(baseUrl, author, 'POST', `/api/blogs/${blogId}/comments`, { body: 'A workshop one with a replaceable pin: it has lasted ten years.', parentId: comment.id });
  return { cookie: reader, blogId };
}

/** Writes a screenshot as a palette PNG (a few tens of KB instead of a few hundred). */
async function save(name: string, png: Buffer): Promise<number> {
  const file = path.join(OUT_DIR, `${name}.png`);
  writeFileSync(file, await sharp(png).png({ palette: true, quality: 90, effort: 10, compressionLevel: 9 }).toBuffer());
  return statSync(file).size;
}

async function shoot(browser: Browser, baseUrl: string, cookie: string, blogId: string): Promise<void> {
  const cookies = cookie.split('; ').map((pair) => {
    const [name, ...value] = pair.split('=');
    return { name: name!, value: value.join('='), url: baseUrl };
  });
  let total = 0;
  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    await context.addCookies(cookies);
    const page = await context.newPage();
    const visit = async (url: string) => {
      await page.goto(`${baseUrl}${url}`, { waitUntil: 'networkidle' });
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      // Every image on screen decoded, so none is a grey box in the picture (a lazy one below the
      // fold never loads, so its decode() would never settle).
      await page.evaluate(() =>
        Promise.race([
          Promise.all([...document.images].filter((img) => img.getBoundingClientRect().top < window.innerHeight).map((img) => img.decode().catch(() => undefined))),
          new Promise((resolve) => setTimeout(resolve, 5000)),
        ]),
      );
    };

    await visit('/');
    total += await save(`home-${width}`, await page.screenshot());

    await visit(`/viewBlog?id=${blogId}`);
    total += await save(`blog-${width}`, await page.screenshot());

    await visit('/create');
    await page.getByLabel('Title', { exact: true }).fill('Planting a winter herb box');
    await page.getByLabel('Content').fill('## What grows in the cold\n\nParsley, thyme and chives keep going through a mild winter.\n\n- a deep box\n- gritty compost\n- a sunny sill');
    total += await save(`editor-${width}`, await page.screenshot());
    await context.close();
  }
  console.log(`Wrote six screenshots to ${path.relative(root, OUT_DIR)}/ (${(total / 1024).toFixed(0)} KB together).`);
}

async function main() {
  const cleanups: Cleanups = [];
  try {
    const mainJs = builtServerEntry();
    const port = Number(process.env.SCREENSHOTS_PORT ?? 3301);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'screenshots-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const app = start(process.execPath, [mainJs], {
      ...builtAppEnv(port, dataDir, ''),
      AI_API_KEY: '',
      SMTP_URL: '',
      AUTH_REQUIRE_EMAIL_VERIFICATION: 'false',
    });
    cleanups.push(() => stop(app));
    const baseUrl = `http://localhost:${port}`;
    await waitFor(`${baseUrl}/api/health`);

    const { cookie, blogId } = await seed(baseUrl);
    mkdirSync(OUT_DIR, { recursive: true });
    const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    cleanups.push(() => browser.close());
    await shoot(browser, baseUrl, cookie, blogId);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

await main();
