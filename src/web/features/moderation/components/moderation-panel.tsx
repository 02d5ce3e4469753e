import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { messages } from '../../../../shared/messages';
import {
  MODERATION_REASON_MAX_LENGTH,
  REPORT_REASON_LABELS,
  type ModerationActionInput,
  type ModerationLogEntry,
  type ModerationTarget,
  type OpenReport,
} from '../../../../shared/moderation-schema';
import { paths } from '../../../../shared/paths';
import { LoadingPage } from '../../../components/loading-page';
import { useDialog } from '../../../components/message-dialog';
import { errorMessage } from '../../../lib/api-client';
import { moderationOverviewQueryOptions } from '../api/get-moderation';
import { useModerationAction } from '../api/moderation-action';
import { PanelSection, PanelTable, when } from './panel-parts';

const ACTION_WORDS: Record<ModerationLogEntry['action'], string> = {
  hide: 'Hid',
  restore: 'Restored',
  dismiss: 'Dismissed a report on',
  suspend: 'Suspended',
  unsuspend: 'Unsuspended',
};


/** Runs one action; a failure is told in the app's dialog. Suspending asks first. */
function useAct() {
  const action = useModerationAction();
  const showDialog = useDialog();
  const act = async (input: ModerationActionInput, confirm?: string) => {
    if (confirm) {
      const confirmed = await showDialog({ title: 'Please confirm', message: confirm, okLabel: 'Yes', cancelLabel: 'Cancel', okVariant: 'danger' });
      if (!confirmed) return;
    }
    try {
      await action.mutateAsync(input);
    } catch (err) {
      await showDialog({ title: messages.errorTitle, message: errorMessage(err) });
    }
  };
  return { act, working: action.isPending };
}

function TargetSummary({ target }: { target: ModerationTarget }) {
  return (
    <>
      <Card.Title as="h3" className="h6 mb-1">
        <Link to={paths.viewBlog(target.blogId)}>{target.title}</Link>
        {target.hidden && <Badge bg="secondary" className="ms-2">Hidden</Badge>}
      </Card.Title>
      <p className="small text-body-secondary mb-1">
        {target.type === 'blog' ? 'Blog' : 'Comment'} by {target.authorEmail}
        {target.authorSuspended && <Badge bg="danger" className="ms-2">Suspended</Badge>}
      </p>
      <p className="mb-2">{target.excerpt}</p>
    </>
  );
}

/** One open report with what it is about and the actions on it; `reason` goes to the log. */
function ReportCard({ report }: { report: OpenReport }) {
  const { act, working } = useAct();
  const [reason, setReason] = useState('');
  const { target } = report;
  const { authorId } = target;
  const why = { reason: reason.trim() || undefined, reportId: report.id };
  const item = { targetType: target.type, targetId: target.id };
  return (
    <Card as="article" className="mb-3" aria-label={`Report on ${target.title}`}>
      <Card.Body>
        <TargetSummary target={target} />
        <p className="mb-2">
          <strong>{REPORT_REASON_LABELS[report.reason]}</strong>
          {report.details && <>: {report.details}</>}
          <span className="small text-body-secondary">
            {' '}
            · reported by {report.reporterEmail} on {when(report.createdAt)}
          </span>
        </p>
        <Form.Group className="mb-2" controlId={`reason-${report.id}`}>
          <Form.Label className="small mb-1">Reason for the log (optional)</Form.Label>
          <Form.Control size="sm" value={reason} maxLength={MODERATION_REASON_MAX_LENGTH} onChange={(event) => setReason(event.target.value)} />
        </Form.Group>
        <div className="d-flex flex-wrap gap-2">
          {target.hidden ? (
            <Button size="sm" variant="outline-primary" disabled={working} onClick={() => void act({ action: 'restore', ...item, ...why })}>
              Restore
            </Button>
          ) : (
            <Button size="sm" variant="warning" disabled={working} onClick={() => void act({ action: 'hide', ...item, ...why })}>
              Hide
            </Button>
          )}
          <Button size="sm" variant="outline-secondary" disabled={working} onClick={() => void act({ action: 'dismiss', reportId: report.id, reason: why.reason })}>
            Dismiss
          </Button>
          {/* A reply from the fediverse has no account here to suspend. */}
          {authorId === null ? null : (
            target.authorSuspended ? (
              <Button size="sm" variant="outline-danger" disabled={working} onClick={() => void act({ action: 'unsuspend', userId: authorId, ...why })}>
                Unsuspend
              </Button>
            ) : (
              <Button
                size="sm"
                variant="danger"
                disabled={working}
                onClick={() =>
                  void act(
                    { action: 'suspend', userId: authorId, ...why },
                    `Suspend ${target.authorEmail}? They are signed out at once, cannot sign in, and everything they wrote is hidden until you unsuspend them.`,
                  )
                }
              >
                Suspend author
              </Button>
            )
          )}
        </div>
      </Card.Body>
    </Card>
  );
}

function HiddenList({ items }: { items: ModerationTarget[] }) {
  const { act, working } = useAct();
  if (items.length === 0) return <p className="text-body-secondary">Nothing is hidden.</p>;
  return (
    <>
      {items.map((target) => (
        <Card as="article" className="mb-2" key={`${target.type}:${target.id}`} aria-label={`Hidden: ${target.title}`}>
          <Card.Body>
            <TargetSummary target={target} />
            <Button size="sm" variant="outline-primary" disabled={working} onClick={() => void act({ action: 'restore', targetType: target.type, targetId: target.id })}>
              Restore
            </Button>
          </Card.Body>
        </Card>
      ))}
    </>
  );
}

function SuspendedList({ accounts }: { accounts: { id: string; email: string; suspendedAt: string }[] }) {
  const { act, working } = useAct();
  if (accounts.length === 0) return <p className="text-body-secondary">No account is suspended.</p>;
  return (
    <ul className="list-unstyled">
      {accounts.map((account) => (
        <li key={account.id} className="d-flex flex-wrap align-items-center gap-2 mb-2">
          <span>
            {account.email} <span className="small text-body-secondary">since {when(account.suspendedAt)}</span>
          </span>
          <Button
            size="sm"
            variant="outline-danger"
            disabled={working}
            aria-label={`Unsuspend ${account.email}`}
            onClick={() => void act({ action: 'unsuspend', userId: account.id })}
          >
            Unsuspend
          </Button>
        </li>
      ))}
    </ul>
  );
}

function ModerationLog({ entries }: { entries: ModerationLogEntry[] }) {
  if (entries.length === 0) return <p className="text-body-secondary">No action yet.</p>;
  return (
    <PanelTable label="Moderation log" columns={['When', 'Moderator', 'Action', 'Why']}>
      {entries.map((entry) => (
        <tr key={entry.id}>
          <td>{when(entry.createdAt)}</td>
          <td>{entry.moderatorEmail}</td>
          <td>
            {ACTION_WORDS[entry.action]} {entry.targetType === 'user' ? 'account' : entry.targetType} “{entry.targetLabel}”
          </td>
          <td>{entry.reason ?? ''}</td>
        </tr>
      ))}
    </PanelTable>
  );
}

/** The moderators' page: open reports with their actions, hidden content, suspended accounts, and the log. */
export function ModerationPanel() {
  const overview = useQuery(moderationOverviewQueryOptions());
  if (overview.isPending) return <LoadingPage />;
  if (overview.isError) return <p className="text-danger">The moderation page could not be loaded. {errorMessage(overview.error)}</p>;
  const { reports, hidden, suspended, log } = overview.data;
  return (
    <>
      <PanelSection id="open-reports" heading={`Open reports (${reports.length})`}>
        {reports.length === 0 ? <p className="text-body-secondary">No open reports.</p> : reports.map((report) => <ReportCard key={report.id} report={report} />)}
      </PanelSection>
      <PanelSection id="hidden-content" heading="Hidden content">
        <HiddenList items={hidden} />
      </PanelSection>
      <PanelSection id="suspended-accounts" heading="Suspended accounts">
        <SuspendedList accounts={suspended} />
      </PanelSection>
      <PanelSection id="moderation-log" heading="Moderation log" className="mb-0">
        <ModerationLog entries={log} />
      </PanelSection>
    </>
  );
}
