import type { ReactNode } from 'react';
import type { BlogSummary } from '../../../../shared/blog-schema';
import { Pager } from '../../../components/pager';
import { BlogCard } from './blog-card';

export interface BlogListPageProps {
  list: { items: BlogSummary[]; hasMore: boolean };
  page: number;
  onPageChange: (page: number) => void;
  /** What an empty first page says: the list has no blogs at all. */
  noBlogs: ReactNode;
}

/**
 * One page of a list of blogs, the first card's image loaded first, then the pager. An empty page
 * past the first says so; an empty first page shows `noBlogs`.
 */
export function BlogListPage({ list, page, onPageChange, noBlogs }: BlogListPageProps) {
  return (
    <>
      {list.items.length === 0 ? (
        page === 1 ? noBlogs : <p>There are no blogs on this page.</p>
      ) : (
        list.items.map((blog, index) => <BlogCard key={blog.id} blog={blog} priority={index === 0} />)
      )}
      <Pager page={page} hasMore={list.hasMore} onPageChange={onPageChange} />
    </>
  );
}
