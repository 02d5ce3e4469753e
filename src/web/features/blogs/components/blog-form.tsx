import { useEffect, useEffectEvent, useState, type FormEvent, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { blogDraftInputSchema, blogInputSchema } from '../../../../shared/blog-schema';
import { MAX_IMAGE_BYTES } from '../../../../shared/constants';
import { messages } from '../../../../shared/messages';
import { tagsInputSchema } from '../../../../shared/tag-schema';
import { useDialog } from '../../../components/message-dialog';
import { errorMessage } from '../../../lib/api-client';
import type { BlogFormValues } from '../api/blog-form-data';
import { DRAFT_TEXTS } from '../draft-texts';
import { MarkdownEditor } from './markdown-editor';
import { TagsField } from './tags-field';

type Field = 'title' | 'blog' | 'tags' | 'image' | 'publishAt';
type Errors = Partial<Record<Field, string>>;

export interface BlogFormProps {
  author: string;
  initialValues?: { title: string; blog: string; tags?: readonly string[] };
  /** Edit only: the image the blog has now, shown as a thumbnail. */
  currentImageUrl?: string | null;
  /** Edit only: the control that removes the current image, shown with it. */
  removeImageControl?: ReactNode;
  submitLabel: string;
  /** Saves the blog and goes on (success popup, redirect). A thrown error is shown and the form kept. */
  onSubmit: (values: BlogFormValues) => Promise<void>;
  /** A second button beside Submit ('Save draft'): its text is checked as a draft's (may be empty). */
  secondaryAction?: { label: string; onClick: (values: BlogFormValues) => Promise<void> };
  /** Every change of the fields (autosave, the leave guard). */
  onChange?: (values: BlogFormValues) => void;
  /** Shown beside the buttons (the autosave status). */
  status?: ReactNode;
  /**
   * 'Schedule' beside the buttons, with a date and time in the writer's time zone: the text is
   * checked as a published blog's, and `publishAt` is that moment in UTC (ISO 8601).
   */
  scheduleAction?: (values: BlogFormValues, publishAt: string) => Promise<void>;
  /** The help under 'Publish at' when it is not the writer's own draft (issue 59); the spec's text without. */
  publishAtHelp?: string;
}

const MAX_IMAGE_MB = Math.round(MAX_IMAGE_BYTES / (1024 * 1024));

function checkImage(file: File | null): string | undefined {
  if (!file) return undefined;
  if (!file.type.startsWith('image/')) return 'Choose an image file (JPEG, PNG, WebP, GIF or AVIF).';
  if (file.size > MAX_IMAGE_BYTES) return `The image is too large: at most ${MAX_IMAGE_MB} MB.`;
  return undefined;
}

/** The create and edit form: Author (read-only), Title, Content, Post Image and the submit button. */
export function BlogForm({
  author,
  initialValues,
  currentImageUrl,
  removeImageControl,
  submitLabel,
  onSubmit,
  secondaryAction,
  onChange,
  status,
  scheduleAction,
  publishAtHelp,
}: BlogFormProps) {
  const [publishAt, setPublishAt] = useState('');
  const [title, setTitle] = useState(initialValues?.title ?? '');
  const [blog, setBlog] = useState(initialValues?.blog ?? '');
  const [tags, setTags] = useState(initialValues?.tags?.join(', ') ?? '');
  const [image, setImage] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [working, setWorking] = useState<'submit' | 'secondary' | 'schedule' | null>(null);
  const showDialog = useDialog();
  // However a field changes (typing, an inserted image, a restored text), the listener hears it.
  const emitChange = useEffectEvent(() => onChange?.({ title, blog, image }));
  useEffect(() => emitChange(), [title, blog, image]);

  const refuse = async (next: Errors) => {
    setErrors(next);
    const first = (['title', 'blog', 'tags', 'image', 'publishAt'] as const).find((field) => next[field]);
    if (!first) return;
    await showDialog({ title: messages.errorTitle, message: next[first] });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await run('submit', blogInputSchema, onSubmit);
  };

  const schedule = () =>
    run('schedule', blogInputSchema, (values) => scheduleAction!(values, new Date(publishAt).toISOString()), {
      // `datetime-local` is the writer's own time zone; `Date` reads it so.
      publishAt: publishAt && !Number.isNaN(new Date(publishAt).getTime()) ? undefined : DRAFT_TEXTS.chooseTime,
    });

  const run = async (
    which: 'submit' | 'secondary' | 'schedule',
    schema: typeof blogInputSchema | typeof blogDraftInputSchema,
    action: (values: BlogFormValues) => Promise<void>,
    extra: Errors = {},
  ) => {
    if (working) return;
    const parsed = schema.safeParse({ title, blog });
    const parsedTags = tagsInputSchema.safeParse(tags);
    const next: Errors = { image: checkImage(image), tags: parsedTags.success ? undefined : parsedTags.error.issues[0]?.message, ...extra };
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as 'title' | 'blog';
        next[field] ??= issue.message;
      }
    }
    if (!parsed.success || !parsedTags.success || next.image || next.publishAt) return refuse(next);
    setErrors({});
    setWorking(which);
    try {
      await action({ ...parsed.data, tags: parsedTags.data, image });
      // Submit moves on to another page; the button stays disabled until it does.
      if (which === 'secondary') setWorking(null);
    } catch (err) {
      setWorking(null);
      await showDialog({ title: messages.errorTitle, message: errorMessage(err) });
    }
  };

  const invalid = (field: Field) => ({
    isInvalid: Boolean(errors[field]),
    'aria-invalid': Boolean(errors[field]) || undefined,
    'aria-describedby': errors[field] ? `blog-${field}-error` : undefined,
  });
  const feedback = (field: Field) => (
    <Form.Control.Feedback type="invalid" id={`blog-${field}-error`}>
      {errors[field]}
    </Form.Control.Feedback>
  );

  return (
    <Form noValidate onSubmit={(event) => void submit(event)}>
      <Form.Group className="mb-3" controlId="blog-author">
        <Form.Label>Author</Form.Label>
        <Form.Control type="email" value={author} readOnly />
      </Form.Group>
      <Form.Group className="mb-3" controlId="blog-title">
        <Form.Label>Title</Form.Label>
        <Form.Control
          type="text"
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          {...invalid('title')}
        />
        {feedback('title')}
      </Form.Group>
      <MarkdownEditor id="blog-content" label="Content" value={blog} onChange={setBlog} invalid={invalid('blog')} feedback={feedback('blog')} />
      <TagsField value={tags} onChange={setTags} invalid={invalid('tags')} feedback={feedback('tags')} />
      {currentImageUrl && (
        <figure className="mb-3">
          <img src={currentImageUrl} alt="The blog's current image" width={320} height={180} className="img-thumbnail blog-card-image" style={{ maxWidth: 320 }} />
          <figcaption className="form-text">Current image. Choose a new one below to replace it.</figcaption>
          {removeImageControl}
        </figure>
      )}
      <Form.Group className="mb-3" controlId="blog-image">
        <Form.Label>Post Image</Form.Label>
        <Form.Control
          type="file"
          accept="image/*"
          onChange={(event) => setImage((event.target as HTMLInputElement).files?.[0] ?? null)}
          {...invalid('image')}
        />
        {feedback('image')}
        <Form.Text>Optional. JPEG, PNG, WebP, GIF or AVIF, at most {MAX_IMAGE_MB} MB.</Form.Text>
      </Form.Group>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <Button type="submit" disabled={working !== null}>
          {working === 'submit' ? messages.loading : submitLabel}
        </Button>
        {secondaryAction && (
          <Button
            variant="outline-secondary"
            disabled={working !== null}
            onClick={() => void run('secondary', blogDraftInputSchema, secondaryAction.onClick)}
          >
            {working === 'secondary' ? messages.loading : secondaryAction.label}
          </Button>
        )}
        {status}
      </div>
      {scheduleAction && (
        <div className="d-flex flex-wrap align-items-end gap-2 mt-3">
          <Form.Group controlId="blog-publish-at">
            <Form.Label>{DRAFT_TEXTS.publishAtLabel}</Form.Label>
            <Form.Control type="datetime-local" value={publishAt} onChange={(event) => setPublishAt(event.target.value)} {...invalid('publishAt')} aria-describedby={errors.publishAt ? 'blog-publishAt-error' : 'blog-publish-at-help'} />
            {feedback('publishAt')}
          </Form.Group>
          <Button variant="outline-primary" disabled={working !== null} onClick={() => void schedule()}>
            {working === 'schedule' ? messages.loading : DRAFT_TEXTS.schedule}
          </Button>
          <Form.Text id="blog-publish-at-help" className="w-100">
            {publishAtHelp ?? DRAFT_TEXTS.publishAtHelp}
          </Form.Text>
        </div>
      )}
    </Form>
  );
}
