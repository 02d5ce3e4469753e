import type { PublicProfile } from '../../../../shared/profile-schema';

/**
 * Who the author is, under the heading of their page: the display name (or the handle when they
 * chose none), `@handle`, and the bio as plain text (React escapes it; its line breaks are kept).
 */
export function AuthorProfile({ author }: { author: PublicProfile }) {
  return (
    <section className="mb-4" aria-label="About the author">
      <p className="mb-1 text-break">
        <span className="fw-semibold">{author.displayName ?? author.handle}</span>{' '}
        <span className="text-body-secondary">@{author.handle}</span>
      </p>
      {author.bio && (
        <p className="mb-0 text-break" style={{ whiteSpace: 'pre-line' }}>
          {author.bio}
        </p>
      )}
    </section>
  );
}
