import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { IMPORT_FILE_TYPES, IMPORT_UPLOAD_MAX_LABEL, type ImportJob } from '../../../../shared/import-schema';
import { messages } from '../../../../shared/messages';
import { errorMessage } from '../../../lib/api-client';
import { useImport } from '../api/get-import';
import { useStartImport } from '../api/start-import';
import { ImportReport } from './import-report';

function ImportProgress({ job }: { job: ImportJob }) {
  const progress = job.progress;
  const label = progress ? `${progress.done} of ${progress.total} posts` : 'Reading the file…';
  return (
    <div className="mt-4">
      <label htmlFor="import-progress" className="form-label">
        {job.dryRun ? 'Checking' : 'Importing'} {job.fileName}: <span>{label}</span>
      </label>
      {/* Without a value the bar is indeterminate: the file is read through once before anything is written. */}
      <progress id="import-progress" className="w-100 d-block" max={progress?.total || 1} value={progress ? progress.done : undefined}>
        {label}
      </progress>
    </div>
  );
}

/** The /import page's form: choose an export, optionally dry, and follow the import to its report. */
export function ImportForm() {
  const [file, setFile] = useState<File | null>(null);
  const [dryRun, setDryRun] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const start = useStartImport();
  const job = useImport(jobId);
  const running = start.isPending || job.data?.state === 'running' || (jobId !== null && job.isPending);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setJobId(null);
    start.mutate({ file, dryRun }, { onSuccess: (started) => setJobId(started.id) });
  };

  const failure = start.error ?? job.error;
  return (
    <>
      <Form onSubmit={submit} noValidate>
        <Form.Group className="mb-3" controlId="import-file">
          <Form.Label>Export file</Form.Label>
          <Form.Control type="file" accept={IMPORT_FILE_TYPES.join(',')} required onChange={(event) => setFile((event.target as HTMLInputElement).files?.[0] ?? null)} aria-describedby="import-file-help" />
          <Form.Text id="import-file-help">
            A Ghost export (.json, or its .zip with images), a WordPress export (.xml, or a .zip with wp-content/uploads) or a .zip of Markdown files with front matter; at most {IMPORT_UPLOAD_MAX_LABEL}. Markdown files that name no author become yours.
          </Form.Text>
        </Form.Group>
        <Form.Check className="mb-3" id="import-dry-run" type="checkbox" label="Dry run: change nothing, only report what would happen" checked={dryRun} onChange={(event) => setDryRun(event.target.checked)} />
        <Button type="submit" disabled={!file || running}>
          {running ? messages.loading : 'Import'}
        </Button>
      </Form>
      {failure && (
        <Alert variant="danger" className="mt-4" role="alert">
          {errorMessage(failure)}
        </Alert>
      )}
      {job.data?.state === 'running' && <ImportProgress job={job.data} />}
      {job.data?.state === 'failed' && job.data.error && (
        <Alert variant="danger" className="mt-4" role="alert">
          {job.data.error.message}
        </Alert>
      )}
      {job.data?.state === 'done' && job.data.report && <ImportReport report={job.data.report} />}
    </>
  );
}
