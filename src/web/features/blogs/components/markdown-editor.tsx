import { useEffect, useId, useRef, useState, type ChangeEvent, type KeyboardEvent, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Form from 'react-bootstrap/Form';
import { MAX_IMAGE_BYTES } from '../../../../shared/constants';
import { messages } from '../../../../shared/messages';
import { useDialog } from '../../../components/message-dialog';
import { errorMessage } from '../../../lib/api-client';
import { useBlogPreview } from '../api/preview-blog';
import { uploadInlineImage } from '../api/upload-inline-image';
import { formatMarkdown, imageMarkdown, insertAtCursor, type MarkdownFormat, type TextEdit } from './markdown-formatting';
import '../../../styles/bootstrap-button-group.scss';

export interface MarkdownEditorProps {
  /** The textarea's id; the label names it. */
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The form's validation state of the field (`isInvalid`, `aria-invalid`, `aria-describedby`). */
  invalid: { isInvalid: boolean; 'aria-invalid'?: boolean; 'aria-describedby'?: string };
  /** The form's error message for the field, shown under the textarea. */
  feedback: ReactNode;
}

const TOOLS: Array<{ format: MarkdownFormat; label: string; shortcut?: string; face: ReactNode }> = [
  { format: 'bold', label: 'Bold', shortcut: 'B', face: <strong>B</strong> },
  { format: 'italic', label: 'Italic', shortcut: 'I', face: <em>I</em> },
  { format: 'heading', label: 'Heading', face: 'H' },
  { format: 'link', label: 'Link', face: 'Link' },
  { format: 'quote', label: 'Quote', face: '“ ”' },
  { format: 'code', label: 'Code', face: <code>{'</>'}</code> },
  { format: 'bulletList', label: 'Bulleted list', face: '• List' },
];
const SHORTCUTS: Record<string, MarkdownFormat> = { b: 'bold', i: 'italic' };
const MAX_IMAGE_MB = Math.round(MAX_IMAGE_BYTES / (1024 * 1024));

/**
 * The Content field as a Markdown editor: a toolbar acting on the textarea's selection (Ctrl/Cmd+B
 * and +I too), 'Insert image' (uploaded, then an 'Image description' asked for, then `![description](url)`
 * at the cursor), and 'Write' / 'Preview'.
 * The preview is the server's own rendering, in the blog page's body classes, so it shows what the
 * published page will show; no Markdown library runs in the browser.
 */
export function MarkdownEditor({ id, label, value, onChange, invalid, feedback }: MarkdownEditorProps) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [mode, setMode] = useState<'write' | 'preview'>('write');
  const [uploading, setUploading] = useState(false);
  const imageInputId = useId();
  const descriptionId = useId();
  const descriptionField = useRef<HTMLInputElement>(null);
  /** An uploaded image waiting for its description before it goes into the text. */
  const [pendingImage, setPendingImage] = useState<{ url: string } | null>(null);
  const [description, setDescription] = useState('');
  const showDialog = useDialog();
  const previewing = mode === 'preview';
  const preview = useBlogPreview(value.trim(), previewing && value.trim() !== '');

  const edit = (change: (text: string, start: number, end: number) => TextEdit) => {
    const field = textarea.current;
    if (!field) return;
    applyEdit(field, change(field.value, field.selectionStart, field.selectionEnd));
  };
  const format = (kind: MarkdownFormat) => edit((text, start, end) => formatMarkdown(text, start, end, kind));

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const kind = SHORTCUTS[event.key.toLowerCase()];
    if (!kind) return;
    event.preventDefault();
    format(kind);
  };

  const insertImage = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const problem = !file.type.startsWith('image/')
      ? 'Choose an image file (JPEG, PNG, WebP, GIF or AVIF).'
      : file.size > MAX_IMAGE_BYTES
        ? `The image is too large: at most ${MAX_IMAGE_MB} MB.`
        : undefined;
    if (problem) {
      await showDialog({ title: messages.errorTitle, message: problem });
      return;
    }
    setUploading(true);
    try {
      const uploaded = await uploadInlineImage(file);
      // The description is the writer's to give: a file's name ("IMG_2041", "chart") describes nothing.
      setDescription('');
      setPendingImage({ url: uploaded.url });
    } catch (err) {
      await showDialog({ title: messages.errorTitle, message: errorMessage(err) });
    } finally {
      setUploading(false);
    }
  };

  useEffect(() => {
    if (pendingImage) descriptionField.current?.focus();
  }, [pendingImage]);

  const placeImage = () => {
    if (!pendingImage) return;
    // At the cursor as it is now: the writer may have gone on typing during the upload.
    edit((_text, start, end) => insertAtCursor(start, end, imageMarkdown(description, pendingImage.url)));
    setPendingImage(null);
  };
  const leaveImageOut = () => {
    setPendingImage(null);
    textarea.current?.focus();
  };
  const onDescriptionKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    // Enter places the image rather than submitting the blog's form; Escape leaves it out.
    if (event.key === 'Enter') {
      event.preventDefault();
      placeImage();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      leaveImageOut();
    }
  };

  return (
    <Form.Group className="mb-3" controlId={id}>
      <div className="d-flex flex-wrap align-items-end justify-content-between gap-2 mb-2">
        <Form.Label className="mb-0">{label}</Form.Label>
        <ButtonGroup size="sm" aria-label="Write or preview">
          <Button variant={previewing ? 'outline-secondary' : 'secondary'} aria-pressed={!previewing} onClick={() => setMode('write')}>
            Write
          </Button>
          <Button variant={previewing ? 'secondary' : 'outline-secondary'} aria-pressed={previewing} onClick={() => setMode('preview')}>
            Preview
          </Button>
        </ButtonGroup>
      </div>
      {!previewing && (
        <div className="markdown-toolbar d-flex flex-wrap align-items-center gap-1 mb-2" role="toolbar" aria-label="Formatting" aria-controls={id}>
          {TOOLS.map((tool) => (
            <Button
              key={tool.format}
              size="sm"
              variant="outline-secondary"
              aria-label={tool.label}
              title={tool.shortcut ? `${tool.label} (Ctrl+${tool.shortcut})` : tool.label}
              onClick={() => format(tool.format)}
            >
              {tool.face}
            </Button>
          ))}
          <span className="markdown-image-input ms-1">
            <input id={imageInputId} type="file" accept="image/*" className="visually-hidden" disabled={uploading || pendingImage !== null} onChange={(event) => void insertImage(event)} />
            <label htmlFor={imageInputId} className={`btn btn-sm btn-outline-secondary mb-0${uploading || pendingImage ? ' disabled' : ''}`}>
              Insert image
            </label>
          </span>
          <span className="form-text ms-1" role="status">
            {uploading ? 'Uploading the image…' : pendingImage ? 'Uploaded: describe the image, then insert it.' : ''}
          </span>
        </div>
      )}
      {!previewing && pendingImage && (
        <div className="markdown-image-description border rounded p-2 mb-2">
          <label htmlFor={descriptionId} className="form-label mb-1">
            Image description
          </label>
          <input
            ref={descriptionField}
            id={descriptionId}
            className="form-control form-control-sm"
            value={description}
            maxLength={300}
            aria-describedby={`${descriptionId}-help`}
            onChange={(event) => setDescription(event.target.value)}
            onKeyDown={onDescriptionKeyDown}
          />
          <div id={`${descriptionId}-help`} className="form-text">
            What the image shows, for readers who cannot see it. Leave it empty for an image that only decorates.
          </div>
          <div className="d-flex gap-2 mt-2">
            <Button size="sm" onClick={placeImage}>
              Insert the image
            </Button>
            <Button size="sm" variant="outline-secondary" onClick={leaveImageOut}>
              Leave it out
            </Button>
          </div>
        </div>
      )}
      <Form.Control
        ref={textarea}
        as="textarea"
        rows={10}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        hidden={previewing}
        {...invalid}
      />
      {previewing && (
        <section className="markdown-preview border rounded p-3" aria-label="Preview" aria-busy={preview.isFetching || undefined}>
          {value.trim() === '' ? (
            <p className="text-body-secondary mb-0">Nothing to preview yet.</p>
          ) : preview.isError ? (
            <p className="text-danger mb-0">{errorMessage(preview.error)}</p>
          ) : preview.data ? (
            // The server's sanitised rendering, in the class the blog's page gives its `html` (`.blog-body`).
            <div className="blog-body" dangerouslySetInnerHTML={{ __html: preview.data.html }} />
          ) : (
            <p className="mb-0">{messages.loading}</p>
          )}
        </section>
      )}
      {feedback}
    </Form.Group>
  );
}

/**
 * Changes the textarea's text through the browser's own editing, so Undo takes the change back
 * and React hears an input event; where that is unavailable, the text is set and the event sent.
 */
function applyEdit(field: HTMLTextAreaElement, edit: TextEdit): void {
  field.focus();
  field.setSelectionRange(edit.start, edit.end);
  // An empty insertion is not a deletion to every browser: deleting says so.
  const inserted = edit.text === '' ? document.execCommand('delete') : document.execCommand('insertText', false, edit.text);
  if (!inserted || field.value.slice(edit.start, edit.start + edit.text.length) !== edit.text) {
    field.setRangeText(edit.text, edit.start, edit.end, 'end');
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
  field.setSelectionRange(edit.selectionStart, edit.selectionEnd);
}
