import { useNavigate } from 'react-router';
import type { Blog } from '../../shared/blog-schema';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { RequireSession } from '../components/require-session';
import { useDialog } from '../components/message-dialog';
import type { BlogFormValues } from '../features/blogs/api/blog-form-data';
import { useCreateBlog } from '../features/blogs/api/create-blog';
import { useUpdateBlog } from '../features/blogs/api/update-blog';
import { AutosaveStatusText } from '../features/blogs/components/autosave-status';
import { BlogForm } from '../features/blogs/components/blog-form';
import { DRAFT_TEXTS, LEAVE_GUARD_TEXTS, scheduledTime } from '../features/blogs/draft-texts';
import { useBlogAutosave } from '../features/blogs/hooks/use-blog-autosave';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import type { Screen } from '../lib/screen';
import { useLeaveGuard } from '../lib/use-leave-guard';
import { useAccess } from '../lib/access';
import { useSubmitBlogForReview } from '../features/blogs/api/submit-blog';

function CreatePage() {
  return (
    <RequireSession what="create a blog">
      {(user) => (
        <>
          <h1 className="h3 mb-4">Create a Blog</h1>
          <CreateBlogForm author={user.email} />
        </>
      )}
    </RequireSession>
  );
}

/**
 * The URL becomes the draft's /edit as soon as the first autosave has made one, so a reload or a
 * reopened tab finds the text. It is swapped in place (`history.replaceState`), not navigated to:
 * a navigation would mount the edit screen and take the cursor out of the text being typed.
 * React Router keeps its own state in `history.state`, which is passed on unchanged.
 */
function showDraftUrl(blog: Blog) {
  window.history.replaceState(window.history.state, '', paths.edit(blog.id));
}

function CreateBlogForm({ author }: { author: string }) {
  const createBlog = useCreateBlog();
  const updateBlog = useUpdateBlog();
  const showDialog = useDialog();
  const navigate = useNavigate();
  const autosave = useBlogAutosave({ target: { kind: 'draft', draftId: null }, saved: { title: '', blog: '' }, onDraftCreated: showDraftUrl });
  useLeaveGuard(autosave.isDirty, LEAVE_GUARD_TEXTS);

  // A contributor (issue 44) does not publish: Submit saves the draft and submits it for review.
  const { can } = useAccess();
  const reviewOnly = can('blog:submit') && !can('blog:publish');
  const submitForReview = useSubmitBlogForReview();

  /** The spec's Submit: publishes (the autosaved draft, when there is one), 'Blog Created!', home. */
  const submit = async (values: BlogFormValues) => {
    const text = autosave.snapshot();
    const draftId = await autosave.flush();
    const blog = draftId
      ? await updateBlog.mutateAsync({ id: draftId, values: { ...values, status: reviewOnly ? 'draft' : 'published' } })
      : await createBlog.mutateAsync(reviewOnly ? { ...values, status: 'draft' } : values);
    if (reviewOnly) await submitForReview.mutateAsync(blog.id);
    autosave.markSaved(text, { stop: true });
    // A contributor's blog, or an author's when the site reviews new blogs, waits for an editor.
    if (blog.status === 'draft') {
      await showDialog({ title: 'Success', message: messages.submittedForReview });
      await navigate(paths.drafts());
      return;
    }
    await showDialog({ title: 'Success', message: messages.blogCreated });
    await navigate(paths.home());
  };

  /** Saves everything, the image too, as a draft, and goes on editing it there. */
  const saveDraft = async (values: BlogFormValues) => {
    const text = autosave.snapshot();
    const draftId = await autosave.flush();
    const blog = draftId
      ? await updateBlog.mutateAsync({ id: draftId, values: { ...values, status: 'draft' } })
      : await createBlog.mutateAsync({ ...values, status: 'draft' });
    autosave.markSaved(text, { stop: true });
    await navigate(paths.edit(blog.id), { replace: true, state: { draftSaved: true } });
  };

  /** Saves the blog scheduled (a draft until then), says when, and shows it in My Drafts. */
  const schedule = async (values: BlogFormValues, publishAt: string) => {
    const text = autosave.snapshot();
    const draftId = await autosave.flush();
    const blog = draftId ? await updateBlog.mutateAsync({ id: draftId, values: { ...values, publishAt } }) : await createBlog.mutateAsync({ ...values, publishAt });
    autosave.markSaved(text, { stop: true });
    await showDialog({ title: 'Success', message: blog.publishAt ? DRAFT_TEXTS.scheduledFor(scheduledTime(blog.publishAt)) : DRAFT_TEXTS.blogPublished });
    await navigate(blog.publishAt ? paths.drafts() : paths.home());
  };

  return (
    <BlogForm
      author={author}
      submitLabel={reviewOnly ? messages.submitForReview : 'Submit'}
      onSubmit={submit}
      scheduleAction={reviewOnly ? undefined : schedule}
      secondaryAction={{ label: DRAFT_TEXTS.saveDraft, onClick: saveDraft }}
      onChange={autosave.onChange}
      status={<AutosaveStatusText status={autosave.status} />}
    />
  );
}

export const createScreen: Screen = {
  cache: 'never',
  Component: CreatePage,
  meta: () => ({ title: 'Create a Blog', description: SITE_DESCRIPTION, path: paths.create() }),
};
