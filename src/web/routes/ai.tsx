import Alert from 'react-bootstrap/Alert';
import { useNavigate } from 'react-router';
import { RequireSession } from '../components/require-session';
import { AI_TEXTS, BlogGenerator } from '../features/ai/components/blog-generator';
import { useCreateBlog } from '../features/blogs/api/create-blog';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { useAccess } from '../lib/access';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import type { Screen } from '../lib/screen';

/** /ai: signed in, the generator; signed out, only a centred sign-in prompt between header and footer. */
function AiPage() {
  return (
    <RequireSession what="use the AI Blog Generator">
      {() => (
        <div className="mx-auto" style={{ maxWidth: 860 }}>
          <h1 className="mb-4">{AI_TEXTS.heading}</h1>
          <GeneratorForWriters />
        </div>
      )}
    </RequireSession>
  );
}

/** A Reader is told why instead of a button the server refuses (`ai:generate`, issue 56); the rest get the generator. */
function GeneratorForWriters() {
  const { access, can } = useAccess();
  if (access && !can('ai:generate')) {
    return (
      <Alert variant="info" role="status">
        {messages.readersCannotGenerate}
      </Alert>
    );
  }
  return <BlogGeneratorSavingDrafts />;
}

/** 'Use as a draft' saves the generated blog as a real draft and opens it in /edit. */
function BlogGeneratorSavingDrafts() {
  const createBlog = useCreateBlog();
  const navigate = useNavigate();
  const useAsDraft = async (draft: { title: string; blog: string }) => {
    const blog = await createBlog.mutateAsync({ ...draft, image: null, status: 'draft' });
    await navigate(paths.edit(blog.id));
  };
  return <BlogGenerator onUseAsDraft={useAsDraft} />;
}

export const aiScreen: Screen = {
  cache: 'never',
  Component: AiPage,
  meta: () => ({ title: 'AI Blog Generator', description: SITE_DESCRIPTION, path: paths.ai() }),
};
