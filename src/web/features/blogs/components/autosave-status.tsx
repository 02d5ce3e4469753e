import { DRAFT_TEXTS } from '../draft-texts';
import type { AutosaveStatus } from '../hooks/use-blog-autosave';

/** 'Saving…' / 'Saved' beside the form's buttons; a polite live region, so it is also heard. */
export function AutosaveStatusText({ status }: { status: AutosaveStatus }) {
  const text =
    status.state === 'saving'
      ? DRAFT_TEXTS.saving
      : status.state === 'saved'
        ? DRAFT_TEXTS.saved
        : status.state === 'local'
          ? DRAFT_TEXTS.savedOnDevice
          : status.state === 'error'
            ? `${DRAFT_TEXTS.notSaved} ${status.message}`
            : '';
  return (
    <span role="status" aria-live="polite" data-testid="autosave-status" className={status.state === 'error' ? 'text-danger small' : 'text-body-secondary small'}>
      {text}
    </span>
  );
}
