import type { PublicProfile } from '../../../../shared/profile-schema';
import { useSite } from '../../../lib/site-context';

/**
 * Who the author is, under the heading of their page: the display name (or the handle when they
 * chose none), their address `@handle@host` (what a fediverse reader searches for to follow
 * them, docs/federation.md), and the bio as plain text (React escapes it; its line breaks are kept).
 */
export function AuthorProfile({ author }: { author: PublicProfile }) {
  const { publicUrl } = useSite();
  const host = URL.canParse(publicUrl) ? new URL(publicUrl).host : '';
  return (
    <section className="mb-4" aria-label="About the author">
      <p className="mb-1 text-break">
        <span className="fw-semibold">{author.displayName ?? author.handle}</span>{' '}
        <span className="text-body-secondary">
          @{author.handle}
          {host && `@${host}`}
        </span>
      </p>
      {author.bio && (
        <p className="mb-0 text-break" style={{ whiteSpace: 'pre-line' }}>
          {author.bio}
        </p>
      )}
    </section>
  );
}
