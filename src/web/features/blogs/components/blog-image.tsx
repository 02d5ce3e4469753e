import type { Blog } from '../../../../shared/blog-schema';

/**
 * The box of an image whose size is not known yet (stored before sizes were kept, until the
 * server's backfill reaches it): 16:9, see `.blog-card-image`, so the page does not shift.
 */
export const CARD_IMAGE_WIDTH = 1600;
export const CARD_IMAGE_HEIGHT = 900;

/**
 * How wide a card's cover is drawn (`.blog-card` in styles.css), so the browser picks the
 * smallest stored file (480 or 960 px wide, or the original) that is sharp enough: beside the
 * text, 20rem from the lg breakpoint and 16rem from md; under it on narrower screens, as wide as
 * the `.container` (540 px from sm, the screen below it) less its gutter (24 px) and the card's
 * padding and border (34 px).
 */
export const CARD_IMAGE_SIZES = '(min-width: 992px) 320px, (min-width: 768px) 256px, (min-width: 576px) 482px, calc(100vw - 58px)';
/**
 * The blog page's cover fills its article column (`.blog-article`, at most 42rem = 672 px), or
 * the `.container` less its gutter on narrower screens.
 */
export const ARTICLE_IMAGE_SIZES = '(min-width: 768px) 672px, (min-width: 576px) 516px, calc(100vw - 24px)';

interface BlogImageProps {
  blog: Pick<Blog, 'title' | 'imageUrl' | 'image'>;
  /** Cropped to fill a 16:9 box in lists, whole at its own shape on the blog page. */
  fit: 'cover' | 'contain';
  /** The page's main image (the first card, the blog page): loaded at once, ahead of others. */
  priority?: boolean;
}

/**
 * A blog's picture with every stored width in `srcset` and its own width and height, so
 * the browser reserves its space before a byte arrives. Off-screen images load lazily.
 */
export function BlogImage({ blog, fit, priority = false }: BlogImageProps) {
  const { image } = blog;
  const src = image?.url ?? blog.imageUrl;
  if (!src) return null;
  // On its own page an image of known size keeps its shape; otherwise the 16:9 box holds it.
  const ownShape = fit === 'contain' && image;
  return (
    <img
      src={src}
      srcSet={image?.srcset}
      sizes={image ? (fit === 'cover' ? CARD_IMAGE_SIZES : ARTICLE_IMAGE_SIZES) : undefined}
      alt={`Image of the blog ${blog.title}`}
      width={image?.width ?? CARD_IMAGE_WIDTH}
      height={image?.height ?? CARD_IMAGE_HEIGHT}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      className={`${ownShape ? 'blog-image' : 'blog-card-image'} d-block mb-3 rounded`}
      style={fit === 'contain' && !ownShape ? { objectFit: 'contain' } : undefined}
    />
  );
}
