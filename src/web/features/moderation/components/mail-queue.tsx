import Button from 'react-bootstrap/Button';
import { messages } from '../../../../shared/messages';
import type { QueueJob, QueueOverview } from '../../../../shared/subscription-schema';
import { LoadingPage } from '../../../components/loading-page';
import { useDialog } from '../../../components/message-dialog';
import { errorMessage } from '../../../lib/api-client';
import { useMailQueue } from '../api/get-mail-queue';
import { useRetryQueueJob } from '../api/retry-queue-job';
import { PanelSection, PanelTable, when } from './panel-parts';


/** The queue's states as moderators read them: a `done` job is a sent e-mail. */
const COUNTS: ReadonlyArray<{ state: keyof QueueOverview['counts']; label: string }> = [
  { state: 'pending', label: 'Pending' },
  { state: 'running', label: 'Running' },
  { state: 'done', label: 'Sent' },
  { state: 'failed', label: 'Failed' },
];

function QueueCounts({ counts }: { counts: QueueOverview['counts'] }) {
  return (
    <dl className="d-flex flex-wrap gap-4 mb-3">
      {COUNTS.map(({ state, label }) => (
        <div key={state}>
          <dt className="small text-body-secondary fw-normal">{label}</dt>
          <dd className="fs-5 mb-0">{counts[state]}</dd>
        </div>
      ))}
    </dl>
  );
}

function FailedJobs({ jobs }: { jobs: QueueJob[] }) {
  const retry = useRetryQueueJob();
  const showDialog = useDialog();
  if (jobs.length === 0) return <p className="text-body-secondary">No job has failed.</p>;
  const retryJob = async (id: string) => {
    try {
      await retry.mutateAsync(id);
    } catch (err) {
      await showDialog({ title: messages.errorTitle, message: errorMessage(err) });
    }
  };
  return (
    <PanelTable label="Failed jobs" columns={['Kind', 'Attempts', 'Last error', 'When', <span className="visually-hidden">Actions</span>]}>
      {jobs.map((job) => (
        <tr key={job.id}>
          <td>{job.kind}</td>
          <td>{job.attempts}</td>
          <td className="text-break">{job.lastError ?? ''}</td>
          <td>{when(job.updatedAt)}</td>
          <td>
            <Button size="sm" variant="outline-primary" disabled={retry.isPending} onClick={() => void retryJob(job.id)}>
              {retry.isPending && retry.variables === job.id ? messages.loading : 'Retry'}
            </Button>
          </td>
        </tr>
      ))}
    </PanelTable>
  );
}

/** The moderators' view of outgoing mail: how many jobs are in each state, and the failed ones to retry. */
export function MailQueue() {
  const queue = useMailQueue();
  return (
    <PanelSection id="mail-queue" heading="Mail queue" className="mt-4">
      {queue.isPending ? (
        <LoadingPage />
      ) : queue.isError ? (
        <p className="text-danger">The mail queue could not be loaded. {errorMessage(queue.error)}</p>
      ) : (
        <>
          <QueueCounts counts={queue.data.counts} />
          <FailedJobs jobs={queue.data.failed} />
        </>
      )}
    </PanelSection>
  );
}
