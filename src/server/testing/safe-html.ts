import { expect } from 'vitest';

const ALLOWED_TAGS = new Set([
  'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'span', 'strong', 'em', 's',
  'del', 'a', 'img', 'ul', 'ol', 'li', 'input', 'label', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
]);

/** What every rendering of a blog must satisfy, whatever went in. */
export function expectSafeHtml(output: string) {
  for (const [, tag] of output.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)/g)) {
    expect(ALLOWED_TAGS, `tag <${tag}> in ${output.slice(0, 300)}`).toContain(tag!.toLowerCase());
  }
  // Attributes are read as the sanitiser writes them (`name="value"`), so text inside a value
  // (`title="&#34; onmouseover=…"`) is never mistaken for an attribute.
  for (const [tag, , attributes] of output.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z-]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    for (const [, name] of attributes!.matchAll(/\s+([a-zA-Z-]+)(?:="[^"]*")?/g)) {
      expect(['href', 'src', 'alt', 'title', 'rel', 'class', 'style', 'start', 'type', 'checked', 'disabled', 'loading'], tag).toContain(name);
    }
  }
  // Every tag parsed whole: nothing left that the pattern above could not read.
  expect(output.match(/<[a-zA-Z]/g)?.length ?? 0).toBe(
    output.match(/<([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z-]+(?:="[^"]*")?)*)\s*\/?>/g)?.length ?? 0,
  );
  for (const [, url] of output.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
    expect(url, 'links are web, mail or relative').toMatch(/^(https?:|mailto:|\/(?!\/)|[^:/]*(?:[/?#]|$))/i);
    expect(url).not.toMatch(/^\s*(javascript|data|vbscript|file):/i);
  }
  for (const [, rel] of output.matchAll(/<a [^>]*rel="([^"]*)"/g)) expect(rel).toBe('nofollow ugc noopener');
  expect(output.match(/<a\s/g)?.length ?? 0).toBe(output.match(/rel="nofollow ugc noopener"/g)?.length ?? 0);
}
