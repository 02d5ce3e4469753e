import { Link } from 'react-router';
import { paths } from '../../../../shared/paths';

/** A blog's tags, each a link to its page (`/tag?name=`); nothing at all for a blog without tags. */
export function BlogTags({ tags, className = '' }: { tags: readonly string[]; className?: string }) {
  if (tags.length === 0) return null;
  return (
    <ul className={`blog-tags list-inline ${className}`} aria-label="Tags">
      {tags.map((tag) => (
        <li className="list-inline-item" key={tag}>
          <Link className="badge rounded-pill text-bg-light border text-decoration-none" to={paths.tag(tag)}>
            #{tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}
