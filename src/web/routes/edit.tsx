import { useEffect, useRef } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import { blogIdSchema, type Blog } from '../../shared/blog-schema';
import { messages } from '../../shared/messages';
import { LoadingPage } from '../components/loading-page';
import { useDialog } from '../components/message-dialog';
import { RequireSession, type SignedInUser } from '../components/require-session';
import type { BlogFormValues } from '../features/blogs/api/blog-form-data';
import { useBlog } from '../features/blogs/api/get-blog';
import { useUpdateBlog } from '../features/blogs/api/update-blog';
import { BlogForm } from '../features/blogs/components/blog-form';
import { ApiError } from '../lib/api-client';
import { LoadError } from '../components/load-error';

/** /edit?id= : the owner changes a blog. No id goes home; an unknown one says 'Blog not found!' first. */
export function EditPage() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  if (!id) return <Navigate to="/" replace />;
  return (
    <RequireSession what="edit a blog">
      {(user) => (blogIdSchema.safeParse(id).success ? <EditBlog key={id} id={id} user={user} /> : <BlogNotFound />)}
    </RequireSession>
  );
}

function EditBlog({ id, user }: { id: string; user: SignedInUser }) {
  const blog = useBlog(id);

  if (blog.error instanceof ApiError && blog.error.status === 404) return <BlogNotFound />;
  if (blog.isPending) return <LoadingPage />;
  if (blog.isError) {
    return (
      <LoadError what="The blog could not be loaded." query={blog} />
    );
  }
  if (blog.data.userId !== user.id) {
    return (
      <Alert variant="warning">
        <Alert.Heading as="h1" className="h4">You can only edit your own blogs</Alert.Heading>
        <p>This blog belongs to {blog.data.author}.</p>
        <Link to={`/viewBlog?id=${encodeURIComponent(id)}`}>View this Blog</Link>
      </Alert>
    );
  }
  return <EditBlogForm blog={blog.data} author={user.email} />;
}

/** The spec's popup, then home. */
function BlogNotFound() {
  const showDialog = useDialog();
  const navigate = useNavigate();
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current) return;
    shown.current = true;
    void showDialog({ title: messages.errorTitle, message: messages.blogNotFound }).then(() => navigate('/', { replace: true }));
  }, [showDialog, navigate]);
  return <p>{messages.blogNotFound}</p>;
}

function EditBlogForm({ blog, author }: { blog: Blog; author: string }) {
  const updateBlog = useUpdateBlog();
  const showDialog = useDialog();
  const navigate = useNavigate();

  const submit = async (values: BlogFormValues) => {
    await updateBlog.mutateAsync({ id: blog.id, values });
    await showDialog({ title: 'Success', message: messages.blogUpdated });
    await navigate('/');
  };

  return (
    <>
      <h1 className="h3 mb-4">Edit Blog</h1>
      <BlogForm
        author={author}
        initialValues={{ title: blog.title, blog: blog.blog }}
        currentImageUrl={blog.imageUrl}
        submitLabel="Update"
        onSubmit={submit}
      />
    </>
  );
}
