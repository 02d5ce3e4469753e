import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages.js';
import { PAGE_STATE_ID, type SiteInfo } from '../../shared/page-render.js';
import { useTestApp } from '../testing/test-app.js';
import { signUpUser } from '../testing/test-users.js';

/** The home page as it arrives: its visible text, the first-account link, the site it was told of. */
async function home(t: ReturnType<typeof useTestApp>) {
  const response = await t.app.inject({ method: 'GET', url: '/' });
  expect(response.statusCode).toBe(200);
  const document = parseDocument(response.body);
  const root = DomUtils.findOne((e) => e.attribs.id === 'root', document.children)!;
  const state = DomUtils.findOne((e) => e.attribs.id === PAGE_STATE_ID, document.children)!;
  return {
    text: DomUtils.textContent(root).replace(/\s+/g, ' '),
    firstAccountLink: DomUtils.findOne((e) => e.name === 'a' && DomUtils.textContent(e) === messages.createFirstAccount, root.children)?.attribs.href,
    site: (JSON.parse(DomUtils.textContent(state)) as { site: SiteInfo }).site,
  };
}

describe('a fresh site’s home page (issue 58)', () => {
  // The response cache on, as in production: the first-run page must not outlive the first account.
  const t = useTestApp({ RESPONSE_CACHE_MB: '8' }, { pages: 'vite', withoutOwner: true });

  it('says, on the server, that the first account becomes the owner, with the way to make it, until that account exists', { timeout: 60_000 }, async () => {
    const fresh = await home(t);
    expect(fresh.text).toContain(messages.firstAccountBecomesOwner);
    expect(fresh.text).toContain(messages.noBlogs.trim());
    expect(fresh.firstAccountLink).toBe('/auth?view=sign_up');
    expect(fresh.site).toMatchObject({ firstAccountAwaited: true, mailToOutbox: true });
    // Asked twice: not kept by the cache meanwhile.
    expect((await home(t)).firstAccountLink).toBe('/auth?view=sign_up');

    await signUpUser(t.app);
    const after = await home(t);
    expect(after.text).not.toContain(messages.firstAccountBecomesOwner);
    expect(after.firstAccountLink).toBeUndefined();
    expect(after.text).toContain(messages.noBlogs.trim());
    expect(after.site).toMatchObject({ firstAccountAwaited: false, mailToOutbox: true });
  });
});

describe('a site whose owner is named by OWNER_EMAIL', () => {
  const t = useTestApp({ OWNER_EMAIL: 'owner@example.com' }, { pages: 'vite', withoutOwner: true });

  it('does not say the first account becomes the owner', { timeout: 60_000 }, async () => {
    const page = await home(t);
    expect(page.text).not.toContain(messages.firstAccountBecomesOwner);
    expect(page.site.firstAccountAwaited).toBe(false);
  });
});
