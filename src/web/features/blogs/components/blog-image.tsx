/**
 * Stored images are at most 1600 px wide; the box is fixed at 16:9 (see `.blog-card-image`),
 * so a card keeps its size while its image loads.
 */
export const CARD_IMAGE_WIDTH = 1600;
export const CARD_IMAGE_HEIGHT = 900;

/** A blog's picture: cropped to fill the box in lists, whole and letterboxed on its own page. */
export function BlogImage({ src, title, fit }: { src: string; title: string; fit: 'cover' | 'contain' }) {
  return (
    <img
      src={src}
      alt={`Image of the blog ${title}`}
      loading={fit === 'cover' ? 'lazy' : undefined}
      decoding="async"
      width={CARD_IMAGE_WIDTH}
      height={CARD_IMAGE_HEIGHT}
      className="blog-card-image d-block mb-3 rounded"
      style={fit === 'contain' ? { objectFit: 'contain' } : undefined}
    />
  );
}
