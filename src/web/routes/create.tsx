import { useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { messages } from '../../shared/messages';
import { RequireSession } from '../components/require-session';
import { useDialog } from '../components/message-dialog';
import type { BlogFormValues } from '../features/blogs/api/blog-form-data';
import { useCreateBlog } from '../features/blogs/api/create-blog';
import { BlogForm } from '../features/blogs/components/blog-form';
import { paths } from '../../shared/paths';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import type { Screen } from '../lib/screen';

/** Other pages (the AI generator's 'Use as a draft') open /create with a draft in the router state. */
const draftStateSchema = z.object({ draft: z.object({ title: z.string(), blog: z.string() }) });

function CreatePage() {
  const location = useLocation();
  const draft = draftStateSchema.safeParse(location.state).data?.draft;
  return (
    <RequireSession what="create a blog">
      {(user) => (
        <>
          <h1 className="h3 mb-4">Create a Blog</h1>
          <CreateBlogForm author={user.email} draft={draft} />
        </>
      )}
    </RequireSession>
  );
}

function CreateBlogForm({ author, draft }: { author: string; draft?: { title: string; blog: string } }) {
  const createBlog = useCreateBlog();
  const showDialog = useDialog();
  const navigate = useNavigate();

  const submit = async (values: BlogFormValues) => {
    await createBlog.mutateAsync(values);
    await showDialog({ title: 'Success', message: messages.blogCreated });
    await navigate(paths.home());
  };

  return <BlogForm author={author} initialValues={draft} submitLabel="Submit" onSubmit={submit} />;
}

export const createScreen: Screen = {
  Component: CreatePage,
  meta: () => ({ title: 'Create a Blog', description: SITE_DESCRIPTION, path: paths.create() }),
};
