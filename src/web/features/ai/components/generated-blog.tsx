import DOMPurify from 'dompurify';

/** The only markup a generated blog may have: the spec's title in h1 and content in p. */
const PURIFY_OPTIONS = { ALLOWED_TAGS: ['h1', 'p'], ALLOWED_ATTR: [] };

/**
 * The server already sanitised `html`; cleaning it again here means a server bug alone can
 * never put a script or a link on the page.
 */
export function GeneratedBlog({ html, busy }: { html: string; busy: boolean }) {
  const clean = DOMPurify.isSupported ? DOMPurify.sanitize(html, PURIFY_OPTIONS) : '';
  return (
    <div
      className="generated-blog mb-3"
      data-testid="generated-blog"
      aria-live="polite"
      aria-busy={busy}
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}

/**
 * Plain text as Markdown that shows exactly that text: characters Markdown would read as
 * formatting are escaped, and so is what would start a heading, list or quote at a line's start.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>~|]/g, '\\$&').replace(/^(\s*)([#+\->]|\d+[.)])/, '$1\\$2');
}

/** A generated blog as a draft's fields: the h1's text as the title, and the paragraphs as Markdown. */
export function blogDraftFromHtml(html: string): { title: string; blog: string } {
  const document = new DOMParser().parseFromString(
    DOMPurify.sanitize(html, PURIFY_OPTIONS),
    'text/html',
  );
  const text = (element: Element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim();
  const title = document.querySelector('h1');
  const paragraphs = [...document.querySelectorAll('p')].map(text).filter(Boolean);
  return { title: title ? text(title) : '', blog: paragraphs.map(escapeMarkdown).join('\n\n') };
}
