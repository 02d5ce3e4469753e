import { z } from 'zod';
import { slugify } from './slug.js';

/**
 * Pages the owner writes (issue 58): the About page's text, the Support page's questions and
 * answers, and pages of their own at `/page/<address>`, all in Markdown. Until the owner saves
 * one, About and Support show the spec's texts as the web app has them built in; the Markdown
 * below is the same text, for the editor to start from.
 */

export const SITE_PAGE_LABELS = {
  pageText: 'Page text',
  savePage: 'Save page',
  newPage: 'New page',
  title: 'Title',
  address: 'Address',
  question: 'Question',
  answer: 'Answer',
} as const;

const PAGE_TEXT_MAX = 50_000;

/** A page's address: what `slugify` would make of it (lowercase ASCII words joined by hyphens). */
export const sitePageSlugSchema = z
  .string()
  .trim()
  .min(1, 'Add an address.')
  .max(80, 'The address is at most 80 characters.')
  .refine((slug) => slugify(slug, 80, '') === slug, 'The address is lowercase letters and digits joined by hyphens, like opening-hours.');

const pageTextSchema = z.string().trim().max(PAGE_TEXT_MAX, `The page text is at most ${PAGE_TEXT_MAX.toLocaleString('en')} characters.`);

/** `PUT /api/admin/site-texts/about`: the About page's whole text. */
export const aboutInputSchema = z.object({ markdown: pageTextSchema.min(1, 'Add the page text.') });

export const faqEntrySchema = z.object({
  question: z.string().trim().min(1, 'Add a question.').max(300, 'A question is at most 300 characters.'),
  answer: z.string().trim().min(1, 'Add an answer.').max(5_000, 'An answer is at most 5,000 characters.'),
});
export type FaqEntry = z.infer<typeof faqEntrySchema>;

/** `PUT /api/admin/site-texts/faq`: the Support page's questions, in order (none is allowed). */
export const faqInputSchema = z.object({ entries: z.array(faqEntrySchema).max(50, 'The Support page has at most 50 questions.') });

/** `POST /api/admin/pages`: a new page. */
export const newSitePageSchema = z.object({
  title: z.string().trim().min(1, 'Add a title.').max(120, 'The title is at most 120 characters.'),
  slug: sitePageSlugSchema,
  markdown: pageTextSchema,
});
/** `PUT /api/admin/pages/:slug`: its title and text (its address stays). */
export const sitePageUpdateSchema = newSitePageSchema.omit({ slug: true });
export const sitePageParamsSchema = z.object({ slug: z.string().max(200) });

/** `GET /api/pages/:slug`: a page as readers see it (sanitised HTML). */
export const sitePageSchema = z.object({ slug: z.string(), title: z.string(), html: z.string(), updatedAt: z.string() });
export type SitePage = z.infer<typeof sitePageSchema>;

/** `GET /api/site-texts`: the owner's About and FAQ as HTML, each null while the spec's text stands. */
export const siteTextsSchema = z.object({
  about: z.object({ html: z.string() }).nullable(),
  faq: z.array(z.object({ question: z.string(), answerHtml: z.string() })).nullable(),
});
export type SiteTexts = z.infer<typeof siteTextsSchema>;

/** `GET /api/admin/pages`: everything the 'Pages' box edits, the spec's texts where nothing is saved. */
export const sitePagesAdminSchema = z.object({
  about: z.object({ markdown: z.string(), custom: z.boolean() }),
  faq: z.object({ entries: z.array(faqEntrySchema), custom: z.boolean() }),
  pages: z.array(z.object({ slug: z.string(), title: z.string(), markdown: z.string() })),
});
export type SitePagesAdmin = z.infer<typeof sitePagesAdminSchema>;

/** `POST /api/admin/pages/preview`: Markdown in, the HTML a page would show. */
export const pagePreviewInputSchema = z.object({ markdown: z.string().max(PAGE_TEXT_MAX) });
export const pagePreviewSchema = z.object({ html: z.string() });

/** The spec's Support questions, as the page has shown them (plain text, which is Markdown too). */
export const DEFAULT_FAQ: readonly FaqEntry[] = [
  {
    question: 'How do I get started?',
    answer:
      'Choose Login or Register in the More menu and sign up with your e-mail address and a password (you can also sign in with a link or a code sent by e-mail). Then pick Create a Blog to write your first post.',
  },
  {
    question: 'Can I make money with my blogs?',
    answer:
      'Not yet. We are looking at ways for writers to earn from their work, such as tips from readers and sponsored posts, and will announce them here when they are ready.',
  },
  {
    question: 'Is the site free?',
    answer: 'Yes. Reading, writing, voting and the AI Blog Generator are all free.',
  },
  {
    question: 'How is my information used?',
    answer:
      'Only to provide the site and make it better: your e-mail address signs you in and is shown as the author of your posts. We do not sell your data.',
  },
  {
    question: 'How do I delete my data?',
    answer:
      'Open Settings and choose Delete Account. This permanently removes your account together with all of your posts, votes and pictures.',
  },
];

/** The spec's About text below its heading, in Markdown (headings are shifted a level down on the page, as in blogs). */
export const DEFAULT_ABOUT_MARKDOWN = `This site began in 2024 as a university computer-science project. Its question was how websites built with JavaScript frameworks behave, and how fast they can be made. It grew into a small place where anyone can read what others write, and where members share their own posts.

## What the site offers

- Reading every blog, five to a page, best rated first, without an account.
- Searching blogs by the words of their titles.
- Writing, editing and deleting your own blogs, with a picture if you like.
- Voting blogs up or down, so the best rise to the top.
- An AI Blog Generator that drafts a random blog for you to start from.
- A support page with answers to common questions and a way to write to us.

## Terms of service

- The e-mail address of your account is shown publicly as the author of each of your posts.
- You must be at least 13 years old to use the site. If you are under 18, you may use it only with the permission of a parent or guardian.
- We may remove content or suspend accounts at our discretion, for example for content that is unlawful or hurts others.

## Privacy

We use what you give us, your e-mail address, your posts, your votes and any message you send, only to run the site and make it better. We do not sell it. Deleting your account permanently removes your posts, votes and pictures from the site.

The site counts its own page views, with no cookie, script or third party: it keeps the day, the blog read, the name of the site a link came from and the link's campaign tags, and counts visitors once a day by a code made from your address and browser with a key that is thrown away each night, so your address, your browser and your way through the site are never stored, and visits that send Do Not Track or Global Privacy Control, and those of bots, are not counted.
`;
