import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { messages } from '../../../../shared/messages';
import { errorMessage } from '../../../lib/api-client';
import { useGenerateBlog } from '../api/generate-blog';
import { useAiInfo } from '../api/get-ai-info';
import { blogDraftFromHtml, GeneratedBlog } from './generated-blog';

export const AI_TEXTS = {
  heading: 'Develop Blog Ideas with AI!',
  intro: 'Press the button below to generate a blog.',
  generate: 'Generate Blog',
  useAsDraft: 'Use as a draft',
} as const;

/**
 * The card of the /ai screen: who writes, the blog as it is written, and the buttons.
 * `onUseAsDraft` saves the generated blog (as Markdown) as the user's draft and opens it; the
 * route supplies it, so this feature does not reach into the blogs feature.
 */
export function BlogGenerator({ onUseAsDraft }: { onUseAsDraft: (draft: { title: string; blog: string }) => Promise<void> }) {
  const info = useAiInfo();
  const generation = useGenerateBlog();
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<unknown>(null);
  // The model that really answered; before any answer, the one the site is set up with.
  const author = generation.model ?? info.data?.label ?? 'AI model';

  const openDraft = async () => {
    if (!generation.result || saving) return;
    setSaving(true);
    setSaveError(null);
    try {
      await onUseAsDraft(blogDraftFromHtml(generation.result.html));
    } catch (err) {
      setSaveError(err);
      setSaving(false);
    }
  };

  return (
    <Card as="section" aria-label="AI generated blog">
      <Card.Header>Author: {author}</Card.Header>
      <Card.Body>
        <p>{AI_TEXTS.intro}</p>
        <GeneratedBlog html={generation.html} busy={generation.isPending} />
        {Boolean(generation.error ?? saveError) && (
          <Alert variant="danger" role="alert">
            {errorMessage(generation.error ?? saveError)}
          </Alert>
        )}
        <div className="d-flex flex-wrap gap-2">
          <Button onClick={generation.generate} disabled={generation.isPending}>
            {generation.isPending ? messages.loading : AI_TEXTS.generate}
          </Button>
          {generation.result && !generation.isPending && (
            <Button variant="outline-primary" onClick={() => void openDraft()} disabled={saving}>
              {saving ? messages.loading : AI_TEXTS.useAsDraft}
            </Button>
          )}
        </div>
      </Card.Body>
    </Card>
  );
}
