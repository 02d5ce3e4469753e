import type { Kysely } from 'kysely';
import { z } from 'zod';
import { DEFAULT_ABOUT_MARKDOWN, DEFAULT_FAQ, type FaqEntry, type SitePagesAdmin, type SiteTexts } from '../../shared/site-pages-schema.js';
import { specTextFollowing } from '../../shared/author-name.js';
import type { ShowAuthorsBy } from '../../shared/site-settings-schema.js';
import { renderBlogBody } from '../core/blog-body.js';
import type { Database } from '../db/schema.js';
import type { ImageStorage } from '../storage/storage.js';
import { allSitePages, readSiteText } from './site-pages.repository.js';

type Storage = Pick<ImageStorage, 'publicBaseUrl'>;

const storedAbout = z.object({ markdown: z.string(), html: z.string() });
const storedFaq = z.object({ entries: z.array(z.object({ question: z.string(), answer: z.string(), answerHtml: z.string() })) });
export type StoredAbout = z.infer<typeof storedAbout>;
export type StoredFaq = z.infer<typeof storedFaq>;

/** Markdown as a page shows it: the blogs' renderer and sanitiser, images only from this site's storage. */
export function pageHtml(markdown: string, storage: Storage): string {
  return renderBlogBody(markdown, storage).html;
}

export async function storedAboutOf(db: Kysely<Database>, options: { forUpdate?: boolean } = {}): Promise<StoredAbout | null> {
  const parsed = storedAbout.safeParse(await readSiteText(db, 'about', options));
  return parsed.success ? parsed.data : null;
}

export async function storedFaqOf(db: Kysely<Database>, options: { forUpdate?: boolean } = {}): Promise<StoredFaq | null> {
  const parsed = storedFaq.safeParse(await readSiteText(db, 'faq', options));
  return parsed.success ? parsed.data : null;
}

export function aboutToStore(markdown: string, storage: Storage): StoredAbout {
  return { markdown, html: pageHtml(markdown, storage) };
}

export function faqToStore(entries: readonly FaqEntry[], storage: Storage): StoredFaq {
  return { entries: entries.map((entry) => ({ ...entry, answerHtml: pageHtml(entry.answer, storage) })) };
}

/** What About and Support show: the owner's texts as HTML, null for each the spec's text still stands for. */
export async function siteTexts(db: Kysely<Database>): Promise<SiteTexts> {
  const [about, faq] = await Promise.all([storedAboutOf(db), storedFaqOf(db)]);
  return {
    about: about ? { html: about.html } : null,
    faq: faq ? faq.entries.map(({ question, answerHtml }) => ({ question, answerHtml })) : null,
  };
}

/**
 * What the 'Pages' box edits: the saved texts, or the spec's to start from, saying what the site
 * shows of its authors ('Show authors by', issue 58), as the pages themselves do.
 */
export async function sitePagesForAdmin(db: Kysely<Database>, showAuthorsBy: ShowAuthorsBy): Promise<SitePagesAdmin> {
  const [about, faq, pages] = await Promise.all([storedAboutOf(db), storedFaqOf(db), allSitePages(db)]);
  const spec = (text: string) => specTextFollowing(showAuthorsBy, text);
  return {
    about: about ? { markdown: about.markdown, custom: true } : { markdown: spec(DEFAULT_ABOUT_MARKDOWN), custom: false },
    faq: faq
      ? { entries: faq.entries.map(({ question, answer }) => ({ question, answer })), custom: true }
      : { entries: DEFAULT_FAQ.map((entry) => ({ ...entry, answer: spec(entry.answer) })), custom: false },
    pages,
  };
}
