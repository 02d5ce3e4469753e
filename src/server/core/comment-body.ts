import { renderMarkdown } from '../markdown/render-markdown.js';

/** Comment text is the blogs' sanitised Markdown without headings or images. */
export function renderCommentBody(body: string): string {
  return renderMarkdown(body, { imagePrefixes: [], comment: true }).html;
}
