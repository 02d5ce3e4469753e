import { useEffect, useRef } from 'react';
import { Link, redirect, useNavigate, useSearchParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import { blogIdSchema, type Blog } from '../../shared/blog-schema';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { LoadingPage } from '../components/loading-page';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import type { Screen } from '../lib/screen';
import { useDialog } from '../components/message-dialog';
import { RequireSession, type SignedInUser } from '../components/require-session';
import type { BlogFormValues } from '../features/blogs/api/blog-form-data';
import { useBlog } from '../features/blogs/api/get-blog';
import { useUpdateBlog } from '../features/blogs/api/update-blog';
import { BlogForm } from '../features/blogs/components/blog-form';
import { RemoveImageButton } from '../features/blogs/components/remove-image-button';
import { ApiError } from '../lib/api-client';

/** /edit?id= : the owner changes a blog. No id goes home; an unknown one says 'Blog not found!' first. */
function EditPage() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id') ?? '';
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
  if (blog.isError) throw blog.error;
  if (blog.data.userId !== user.id) {
    return (
      <Alert variant="warning">
        <Alert.Heading as="h1" className="h4">You can only edit your own blogs</Alert.Heading>
        <p>This blog belongs to {blog.data.author}.</p>
        <Link to={paths.viewBlog(id)}>View this Blog</Link>
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
    void showDialog({ title: messages.errorTitle, message: messages.blogNotFound }).then(() => navigate(paths.home(), { replace: true }));
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
    await navigate(paths.home());
  };

  return (
    <>
      <h1 className="h3 mb-4">Edit Blog</h1>
      <BlogForm
        author={author}
        initialValues={{ title: blog.title, blog: blog.blog }}
        currentImageUrl={blog.imageUrl}
        removeImageControl={<RemoveImageButton blogId={blog.id} />}
        submitLabel="Update"
        onSubmit={submit}
      />
    </>
  );
}

export const editScreen: Screen = {
  Component: EditPage,
  // The spec's rule, kept by the server too: no id goes home.
  loader: () => ({ request }) => (new URL(request.url).searchParams.get('id') ? null : redirect(paths.home())),
  meta: () => ({ title: 'Edit Blog', description: SITE_DESCRIPTION, path: paths.home() }),
  loadError: 'The blog could not be loaded.',
};
