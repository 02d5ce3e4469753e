import { renderMarkdown, type RenderedMarkdown } from '../markdown/render-markdown.js';
import type { ImageStorage } from '../storage/storage.js';

/** A blog's Markdown as its page shows it; images only from this site's own storage. */
export function renderBlogBody(
  body: string,
  storage: Pick<ImageStorage, 'publicBaseUrl'>,
  imageSizes?: ReadonlyMap<string, { width: number; height: number }>,
): RenderedMarkdown {
  return renderMarkdown(body, { imagePrefixes: [storage.publicBaseUrl], imageSizes });
}
