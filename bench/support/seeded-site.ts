import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { builtServerEntry, startBuiltApp, type Cleanups } from './bench-processes.js';

export interface SeededSite {
  baseUrl: string;
  /** The id of one seeded blog, for a /viewBlog page: a long article with comments. */
  blogId: string;
  /** A word every seeded title holds, for a /search page. */
  searchTerm: string;
  /** The signed-in author's session cookie. */
  cookie: string;
}

/** A picture worth compressing: a gradient with grain, as a camera JPEG would carry. */
async function photo(seed: number): Promise<Buffer> {
  const hue = (seed * 67) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},60%,45%)"/><stop offset="1" stop-color="hsl(${(hue + 90) % 360},60%,70%)"/>
    </linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** About 2,500 words in twelve sections, as a long post would be. */
function longArticle(): string {
  const sentence = 'The harbour is quiet at dawn, and the boats wait for the tide with a patience the town has long learned to copy. ';
  return Array.from({ length: 12 }, (_, section) => `# Section ${section + 1}\n\n${[1, 2, 3].map(() => sentence.repeat(4)).join('\n\n')}`).join('\n\n');
}

/**
 * Starts the built app (BUILD_DIR, `dist` by default; nothing is built here) on PGlite in a
 * fresh data folder, signs one author up and publishes `blogs` blogs with images through the
 * API, as a visitor's browser would; the first is a long article with five comments.
 */
export async function startSeededSite(cleanups: Cleanups, blogs = 6): Promise<SeededSite> {
  const mainJs = builtServerEntry();
  // On PGlite (no DATABASE_URL); pages are asked for at the app's PUBLIC_URL, as a browser would.
  const baseUrl = (await startBuiltApp(mainJs, '', cleanups, { AUTH_REQUIRE_EMAIL_VERIFICATION: 'false' })).replace('127.0.0.1', 'localhost');

  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  const signUp = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password: 'correct horse battery staple', name: 'Bench author' }),
  });
  if (!signUp.ok) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`);
  const cookie = signUp.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');

  const searchTerm = 'Lighthouse';
  let blogId = '';
  for (let i = 1; i <= blogs; i++) {
    const form = new FormData();
    form.append('title', `${searchTerm} notes ${i}: what a quiet harbour teaches about patience`);
    form.append('blog', i === 1 ? longArticle() : `Paragraph ${i}. `.repeat(40) + '\n\nA second paragraph, so the page has a body worth reading.');
    form.append('image', new Blob([new Uint8Array(await photo(i))], { type: 'image/jpeg' }), `photo-${i}.jpg`);
    const created = await fetch(`${baseUrl}/api/blogs`, { method: 'POST', headers: { cookie, origin: baseUrl }, body: form });
    if (created.status !== 201) throw new Error(`creating a blog answered ${created.status}: ${await created.text()}`);
    blogId ||= ((await created.json()) as { id: string }).id;
  }
  for (let i = 1; i <= 5; i++) {
    const comment = await fetch(`${baseUrl}/api/blogs/${blogId}/comments`, {
      method: 'POST',
      headers: { cookie, origin: baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ body: `Comment ${i}: ` + 'a thoughtful remark about harbours and patience. '.repeat(3) }),
    });
    if (comment.status !== 201) throw new Error(`commenting answered ${comment.status}: ${await comment.text()}`);
  }
  return { baseUrl, blogId, searchTerm, cookie };
}
