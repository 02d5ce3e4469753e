import { Link, useSearchParams } from 'react-router';
import { blogIdSchema } from '../../shared/blog-schema';
import { messages } from '../../shared/messages';
import { useBlog } from '../features/blogs/api/get-blog';
import { BlogDetails } from '../features/blogs/components/blog-details';
import { ApiError } from '../lib/api-client';
import { useSession } from '../lib/auth-client';
import { LoadError } from '../components/load-error';

function BlogDoesNotExist() {
  return (
    <div className="py-4">
      <h1 className="h3">{messages.blogDoesNotExist}</h1>
      <Link to="/">Go to the home page</Link>
    </div>
  );
}

/** /viewBlog?id= : one blog, with Edit Blog and Delete Blog for its owner. */
export function ViewBlogPage() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id') ?? '';
  // A malformed id cannot name a blog: no request needed.
  if (!blogIdSchema.safeParse(id).success) return <BlogDoesNotExist />;
  return <ViewBlog key={id} id={id} />;
}

function ViewBlog({ id }: { id: string }) {
  const blog = useBlog(id);
  const { data: session } = useSession();

  if (blog.isPending) return <p role="status">{messages.loading}</p>;
  if (blog.isError) {
    if (blog.error instanceof ApiError && blog.error.status === 404) return <BlogDoesNotExist />;
    return (
      <LoadError what="The blog could not be loaded." query={blog} />
    );
  }
  return <BlogDetails blog={blog.data} isOwner={session?.user.id === blog.data.userId} />;
}
