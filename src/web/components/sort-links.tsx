import { Link } from 'react-router';
import type { BlogSort } from '../../shared/blog-schema';

/** The orders of a list, as their controls name them; 'top' is the spec's and the default. */
export const SORTS: ReadonlyArray<{ sort: BlogSort; label: string; title: string }> = [
  { sort: 'top', label: 'Top', title: 'Top blogs' },
  { sort: 'new', label: 'New', title: 'New blogs' },
  { sort: 'hot', label: 'Hot', title: 'Hot blogs' },
];

/** `?sort=` when it names an order; anything else is the default. */
export function sortFromUrl(value: string | null): BlogSort {
  return SORTS.find((option) => option.sort === value)?.sort ?? 'top';
}

/**
 * Top, New and Hot as links: they work before (or without) the scripts, and each order has its
 * URL (`pathOf`, page 1 of the list in that order).
 */
export function SortLinks({ current, pathOf }: { current: BlogSort; pathOf: (sort: BlogSort) => string }) {
  return (
    <nav aria-label="Order of the blogs" className="mb-3">
      <ul className="nav nav-pills gap-1">
        {SORTS.map(({ sort, label }) => (
          <li className="nav-item" key={sort}>
            <Link className={`nav-link${sort === current ? ' active' : ''}`} aria-current={sort === current ? 'page' : undefined} to={pathOf(sort)}>
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
