import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { messages } from '../../../../shared/messages';
import {
  REPORT_DETAILS_MAX_LENGTH,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  reportInputSchema,
  type ReportReason,
  type ReportTargetType,
} from '../../../../shared/moderation-schema';
import { useDialog } from '../../../components/message-dialog';
import { errorMessage } from '../../../lib/api-client';
import { useReportContent } from '../api/report-content';

interface ReportChoice {
  reason: ReportReason | null;
  details: string;
}

/** The dialog's form: the reason as radio buttons and optional details, told to `onChange` as the reader goes. */
function ReportFields({ initial, error, onChange }: { initial: ReportChoice; error: string | null; onChange: (patch: Partial<ReportChoice>) => void }) {
  const id = useId();
  const [reason, setReason] = useState(initial.reason);
  return (
    <Form onSubmit={(event) => event.preventDefault()}>
      <fieldset>
        <legend className="fs-6">Why are you reporting this?</legend>
        {REPORT_REASONS.map((value) => (
          <Form.Check
            key={value}
            type="radio"
            id={`${id}-${value}`}
            name="reason"
            label={REPORT_REASON_LABELS[value]}
            checked={reason === value}
            isInvalid={error !== null && reason === null}
            onChange={() => {
              onChange({ reason: value });
              setReason(value);
            }}
          />
        ))}
        {error && <div className="text-danger small mt-1" role="alert">{error}</div>}
      </fieldset>
      <Form.Group className="mt-3" controlId={`${id}-details`}>
        <Form.Label>Details (optional)</Form.Label>
        <Form.Control
          as="textarea"
          rows={3}
          maxLength={REPORT_DETAILS_MAX_LENGTH}
          defaultValue={initial.details}
          onChange={(event) => onChange({ details: event.target.value })}
        />
      </Form.Group>
    </Form>
  );
}

/**
 * 'Report' for a signed-in reader: the app's one dialog asks for a reason (and details); the
 * report goes to the moderators. A reader who already has an open report on the item is told so.
 */
export function ReportButton({ targetType, targetId }: { targetType: ReportTargetType; targetId: string }) {
  const showDialog = useDialog();
  const report = useReportContent();
  const [sent, setSent] = useState(false);

  const open = async () => {
    const choice: ReportChoice = { reason: null, details: '' };
    let error: string | null = null;
    for (;;) {
      const confirmed = await showDialog({
        title: targetType === 'blog' ? 'Report this blog' : 'Report this comment',
        message: <ReportFields initial={{ ...choice }} error={error} onChange={(patch) => Object.assign(choice, patch)} />,
        okLabel: 'Send report',
        cancelLabel: 'Cancel',
      });
      if (!confirmed) return;
      const parsed = reportInputSchema.safeParse({ targetType, targetId, reason: choice.reason ?? undefined, details: choice.details });
      if (parsed.success) break;
      error = choice.reason === null ? messages.chooseReportReason : (parsed.error.issues[0]?.message ?? messages.chooseReportReason);
    }
    try {
      const result = await report.mutateAsync({ targetType, targetId, reason: choice.reason!, details: choice.details });
      setSent(true);
      await showDialog({ title: 'Report sent', message: result.message });
    } catch (err) {
      await showDialog({ title: messages.errorTitle, message: errorMessage(err) });
    }
  };

  return (
    <Button variant="link" size="sm" className="text-body-secondary p-0" disabled={report.isPending} onClick={() => void open()}>
      {sent ? 'Reported' : messages.report}
    </Button>
  );
}
