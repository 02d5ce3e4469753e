import { Link } from 'react-router';
import { paths } from '../../../../shared/paths';
import type { TagCount } from '../../../../shared/tag-schema';

/** Tags with their numbers of blogs, each a link to its page. */
export function TagList({ tags }: { tags: readonly TagCount[] }) {
  return (
    <ul className="list-unstyled d-flex flex-wrap gap-2 tag-list">
      {tags.map((tag) => (
        <li key={tag.name}>
          <Link className="btn btn-outline-secondary btn-sm" to={paths.tag(tag.name)}>
            #{tag.name} <span className="badge text-bg-secondary ms-1">{tag.blogs}</span>
            <span className="visually-hidden"> {tag.blogs === 1 ? 'blog' : 'blogs'}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
