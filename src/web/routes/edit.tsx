import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, redirect, useLocation, useNavigate, useSearchParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
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
import { useSubmitBlogForReview } from '../features/blogs/api/submit-blog';
import { useAccess } from '../lib/access';
import { useUpdateBlog } from '../features/blogs/api/update-blog';
import { AutosaveStatusText } from '../features/blogs/components/autosave-status';
import { BlogForm } from '../features/blogs/components/blog-form';
import { RemoveImageButton } from '../features/blogs/components/remove-image-button';
import { REVIEW_TEXTS, ReviewPanel } from '../features/blogs/components/review-panel';
import { DRAFT_TEXTS, LEAVE_GUARD_TEXTS, scheduledTime } from '../features/blogs/draft-texts';
import { readLocalEdit, removeLocalEdit, useBlogAutosave, type BlogText } from '../features/blogs/hooks/use-blog-autosave';
import { ApiError } from '../lib/api-client';
import { useLeaveGuard } from '../lib/use-leave-guard';

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
  const { can } = useAccess();

  if (blog.error instanceof ApiError && blog.error.status === 404) return <BlogNotFound />;
  if (blog.isPending) return <LoadingPage />;
  if (blog.isError) throw blog.error;
  // Editors and up (issue 44) edit anyone's blog; the server checks it again.
  if (blog.data.userId !== user.id && !can('blog:editAny')) {
    return (
      <Alert variant="warning">
        <Alert.Heading as="h1" className="h4">You can only edit your own blogs</Alert.Heading>
        <p>This blog belongs to {blog.data.author}.</p>
        <Link to={paths.viewBlog(id)}>View this Blog</Link>
      </Alert>
    );
  }
  return <EditForm blog={blog.data} author={blog.data.userId === user.id ? user.email : blog.data.author} reviewing={blog.data.userId !== user.id} />;
}

/** Which form is decided once: publishing a draft must not swap the form while its success popup shows. */
function EditForm({ blog, author, reviewing }: { blog: Blog; author: string; reviewing: boolean }) {
  const [isDraft] = useState(blog.status === 'draft');
  return isDraft ? <EditDraftForm blog={blog} author={author} reviewing={reviewing} /> : <EditBlogForm blog={blog} author={author} />;
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

/**
 * A published blog: the spec's Update. Typing never changes the live post; unsaved edits are kept
 * in this browser (by blog id) and come back, with a notice and a way to discard them, on return.
 */
function EditBlogForm({ blog, author }: { blog: Blog; author: string }) {
  const updateBlog = useUpdateBlog();
  const showDialog = useDialog();
  const navigate = useNavigate();
  const saved: BlogText = { title: blog.title, blog: blog.blog };
  const [restored, setRestored] = useState(() => {
    const local = readLocalEdit(blog.id);
    if (local && local.title === saved.title && local.blog === saved.blog) {
      removeLocalEdit(blog.id);
      return null;
    }
    return local;
  });
  const [formKey, setFormKey] = useState(0);
  const autosave = useBlogAutosave({ target: { kind: 'local', blogId: blog.id }, saved });
  useLeaveGuard(autosave.isDirty, LEAVE_GUARD_TEXTS);

  const submit = async (values: BlogFormValues) => {
    const text = autosave.snapshot();
    await updateBlog.mutateAsync({ id: blog.id, values });
    autosave.markSaved(text, { stop: true });
    await showDialog({ title: 'Success', message: messages.blogUpdated });
    await navigate(paths.home());
  };

  const discard = () => {
    autosave.markSaved(saved);
    setRestored(null);
    setFormKey((key) => key + 1);
  };

  return (
    <>
      <h1 className="h3 mb-4">Edit Blog</h1>
      {restored && (
        <NoticeWithButton buttonLabel={DRAFT_TEXTS.discard} onClick={discard}>
          <div>
            <Alert.Heading as="h2" className="h6 mb-1">
              {DRAFT_TEXTS.restoredTitle}
            </Alert.Heading>
            {DRAFT_TEXTS.restored(new Date(restored.savedAt).toLocaleString())}
          </div>
        </NoticeWithButton>
      )}
      <BlogForm
        key={formKey}
        author={author}
        initialValues={{ ...(restored && formKey === 0 ? { title: restored.title, blog: restored.blog } : saved), tags: blog.tags }}
        currentImageUrl={blog.imageUrl}
        removeImageControl={<RemoveImageButton blogId={blog.id} />}
        submitLabel="Update"
        onSubmit={submit}
        onChange={autosave.onChange}
        status={<AutosaveStatusText status={autosave.status} />}
      />
    </>
  );
}

/** A draft: saved to the server while typing; 'Publish' publishes it, 'Save draft' saves everything and stays. */
/** `reviewing`: an editor (issue 59) opened someone else's draft: who submitted it and 'Send back' show above the form. */
function EditDraftForm({ blog, author, reviewing }: { blog: Blog; author: string; reviewing: boolean }) {
  const updateBlog = useUpdateBlog();
  const showDialog = useDialog();
  const navigate = useNavigate();
  const location = useLocation();
  const justSaved = (location.state as { draftSaved?: unknown } | null)?.draftSaved === true;
  const [formKey, setFormKey] = useState(0);
  const autosave = useBlogAutosave({
    target: { kind: 'draft', draftId: blog.id },
    saved: { title: blog.title, blog: blog.blog },
    initialStatus: justSaved ? { state: 'saved' } : undefined,
  });
  useLeaveGuard(autosave.isDirty, LEAVE_GUARD_TEXTS);

  const publish = async (values: BlogFormValues) => {
    const text = autosave.snapshot();
    await autosave.flush();
    const saved = await updateBlog.mutateAsync({ id: blog.id, values: { ...values, status: 'published' } });
    autosave.markSaved(text, { stop: true });
    // When the site reviews new blogs (issue 44), an author's publish is a submission: the blog stays a draft.
    const submitted = saved.status === 'draft';
    await showDialog({ title: 'Success', message: submitted ? messages.submittedForReview : DRAFT_TEXTS.blogPublished });
    await navigate(submitted ? paths.drafts() : paths.home());
  };

  // A contributor (issue 44) does not publish: the form's button saves the draft and submits it for review.
  const { can } = useAccess();
  const reviewOnly = can('blog:submit') && !can('blog:publish');
  const submitBlog = useSubmitBlogForReview();
  const submitForReview = async (values: BlogFormValues) => {
    const text = autosave.snapshot();
    await autosave.flush();
    await updateBlog.mutateAsync({ id: blog.id, values: { ...values, status: 'draft' } });
    await submitBlog.mutateAsync(blog.id);
    autosave.markSaved(text, { stop: true });
    await showDialog({ title: 'Success', message: messages.submittedForReview });
    await navigate(paths.drafts());
  };

  const saveDraft = async (values: BlogFormValues) => {
    const text = autosave.snapshot();
    await autosave.flush();
    await updateBlog.mutateAsync({ id: blog.id, values: { ...values, status: 'draft' } });
    autosave.markSaved(text);
    // A chosen image is stored now: a fresh form shows it as the current one, with an empty file field.
    if (values.image) setFormKey((key) => key + 1);
  };

  const [publishAt, setPublishAt] = useState(blog.publishAt);
  const schedule = async (values: BlogFormValues, at: string) => {
    const text = autosave.snapshot();
    await autosave.flush();
    const saved = await updateBlog.mutateAsync({ id: blog.id, values: { ...values, publishAt: at } });
    autosave.markSaved(text, { stop: true });
    await showDialog({ title: 'Success', message: saved.publishAt ? DRAFT_TEXTS.scheduledFor(scheduledTime(saved.publishAt)) : DRAFT_TEXTS.blogPublished });
    await navigate(saved.publishAt ? paths.drafts() : paths.home());
  };
  const unschedule = async () => {
    const text = autosave.snapshot();
    await autosave.flush();
    await updateBlog.mutateAsync({ id: blog.id, values: { ...text, image: null, publishAt: '' } });
    setPublishAt(null);
    await showDialog({ title: 'Success', message: DRAFT_TEXTS.unscheduled });
  };

  return (
    <>
      <h1 className="h3 mb-4">
        Edit Blog{' '}
        <Badge bg="secondary" className="align-middle fs-6">
          {DRAFT_TEXTS.draftBadge}
        </Badge>
      </h1>
      {reviewing && (
        <ReviewPanel
          blogId={blog.id}
          onSentBack={async () => {
            autosave.markSaved(autosave.snapshot(), { stop: true });
            await showDialog({ title: 'Success', message: REVIEW_TEXTS.sentBack });
          }}
        />
      )}
      {publishAt && (
        <NoticeWithButton buttonLabel={DRAFT_TEXTS.unschedule} onClick={() => void unschedule()}>
          <span>{DRAFT_TEXTS.scheduledFor(scheduledTime(publishAt))}</span>
        </NoticeWithButton>
      )}
      <BlogForm
        key={formKey}
        author={author}
        initialValues={{ ...(formKey === 0 ? { title: blog.title, blog: blog.blog } : autosave.snapshot()), tags: blog.tags }}
        currentImageUrl={blog.imageUrl}
        removeImageControl={<RemoveImageButton blogId={blog.id} />}
        submitLabel={reviewOnly ? messages.submitForReview : DRAFT_TEXTS.publish}
        onSubmit={reviewOnly ? submitForReview : publish}
        secondaryAction={{ label: DRAFT_TEXTS.saveDraft, onClick: saveDraft }}
        scheduleAction={reviewOnly ? undefined : schedule}
        publishAtHelp={reviewing ? DRAFT_TEXTS.publishAtHelpReviewing : undefined}
        onChange={autosave.onChange}
        status={<AutosaveStatusText status={autosave.status} />}
      />
    </>
  );
}

export const editScreen: Screen = {
  cache: 'never',
  Component: EditPage,
  // The spec's rule, kept by the server too: no id goes home.
  loader: () => ({ request }) => (new URL(request.url).searchParams.get('id') ? null : redirect(paths.home())),
  meta: () => ({ title: 'Edit Blog', description: SITE_DESCRIPTION, path: paths.home() }),
  loadError: 'The blog could not be loaded.',
};

/** A notice above the form with one button at its end (discard the restored text, unschedule). */
function NoticeWithButton({ buttonLabel, onClick, children }: { buttonLabel: string; onClick: () => void; children: ReactNode }) {
  return (
    <Alert variant="info" className="d-flex flex-wrap align-items-center justify-content-between gap-2">
      {children}
      <Button variant="outline-secondary" size="sm" onClick={onClick}>
        {buttonLabel}
      </Button>
    </Alert>
  );
}
