import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { messages } from '../../../shared/messages';
import { newIntegrationSchema, type CreatedIntegration, type Integration } from '../../../shared/integration-schema';
import { LoadingPage } from '../../components/loading-page';
import { confirmIrreversible, useDialog, useRunOrTell } from '../../components/message-dialog';
import { errorMessage } from '../../lib/api-client';
import { useCreateIntegration, useDeleteIntegration, useIntegrations, useRegenerateIntegration } from './api/integrations';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

/** The Admin API key whole, shown this once (after adding or making the keys anew). */
function ShownOnce({ created }: { created: CreatedIntegration }) {
  return (
    <Alert variant="success" className="mt-3" role="status">
      <p className="mb-1">The Admin API key of ‘{created.integration.name}’, shown this once:</p>
      <code className="text-break">{created.adminKey}</code>
    </Alert>
  );
}

function AddIntegrationForm({ onCreated }: { onCreated: (created: CreatedIntegration) => void }) {
  const create = useCreateIntegration();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (form: FormEvent) => {
    form.preventDefault();
    const parsed = newIntegrationSchema.safeParse({ name });
    if (!parsed.success) return setError(parsed.error.issues[0]!.message);
    setError(null);
    try {
      onCreated(await create.mutateAsync(parsed.data));
      setName('');
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <Form noValidate onSubmit={(form) => void submit(form)} className="mb-3" aria-label="Add integration">
      <div className="row g-3 align-items-end">
        <Form.Group className="col-md-6" controlId="integration-name">
          <Form.Label>Name</Form.Label>
          <Form.Control type="text" value={name} onChange={(change) => setName(change.target.value)} isInvalid={!!error} />
          <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
        </Form.Group>
        <div className="col-md-6">
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? messages.loading : 'Add integration'}
          </Button>
        </div>
      </div>
    </Form>
  );
}

function IntegrationItem({ integration, onCreated }: { integration: Integration; onCreated: (created: CreatedIntegration) => void }) {
  const regenerate = useRegenerateIntegration();
  const remove = useDeleteIntegration();
  const showDialog = useDialog();
  const run = useRunOrTell();
  const confirmRegenerate = async () => {
    if (await showDialog(confirmIrreversible('Regenerate the keys?', `The apps using ‘${integration.name}’ stop working until they are given the new keys.`, 'Regenerate'))) {
      await run(async () => onCreated(await regenerate.mutateAsync(integration.id)));
    }
  };
  const confirmDelete = async () => {
    if (await showDialog(confirmIrreversible('Delete this integration?', `The apps using ‘${integration.name}’ stop working.`, 'Delete'))) {
      await run(() => remove.mutateAsync(integration.id));
    }
  };
  return (
    <li className="list-group-item">
      <div className="d-flex flex-wrap justify-content-between gap-2">
        <h4 className="h6 mb-2">{integration.name}</h4>
        <div className="d-flex gap-2 align-items-start">
          <Button size="sm" variant="outline-primary" disabled={regenerate.isPending} onClick={() => void confirmRegenerate()} aria-label={`Regenerate keys of ${integration.name}`}>
            Regenerate keys
          </Button>
          <Button size="sm" variant="outline-danger" disabled={remove.isPending} onClick={() => void confirmDelete()} aria-label={`Delete ${integration.name}`}>
            Delete
          </Button>
        </div>
      </div>
      <dl className="row small mb-0">
        <dt className="col-sm-3">Content API key</dt>
        <dd className="col-sm-9">
          <code className="text-break">{integration.contentKey}</code>
        </dd>
        <dt className="col-sm-3">Admin API key</dt>
        <dd className="col-sm-9">
          <code className="text-break">{integration.adminKeyId}:••••••••</code> <span className="text-body-secondary">(its secret was shown once)</span>
        </dd>
        <dt className="col-sm-3">API URL</dt>
        <dd className="col-sm-9">
          <code className="text-break">{integration.apiUrl}</code>
        </dd>
        <dt className="col-sm-3">Last used</dt>
        <dd className="col-sm-9">{when(integration.lastUsedAt)}</dd>
      </dl>
    </li>
  );
}

/** Keys for Ghost's Content and Admin APIs (issue 60, docs/apis.md), in /admin's 'Integrations'. */
export function GhostIntegrations() {
  const integrations = useIntegrations();
  const [created, setCreated] = useState<CreatedIntegration | null>(null);
  return (
    <div className="mb-4">
      <h3 className="h5">Custom integrations</h3>
      <p className="text-body-secondary">Apps written for Ghost read this site through Ghost’s Content API, and write to it through its Admin API, with an integration’s keys and the API URL.</p>
      <AddIntegrationForm onCreated={setCreated} />
      {created && <ShownOnce created={created} />}
      {integrations.isPending ? (
        <LoadingPage />
      ) : integrations.isError ? (
        <p className="text-danger">The integrations could not be loaded. {errorMessage(integrations.error)}</p>
      ) : integrations.data.items.length === 0 ? (
        <p className="text-body-secondary">No integrations yet.</p>
      ) : (
        <ul className="list-group" aria-label="Integrations">
          {integrations.data.items.map((integration) => (
            <IntegrationItem key={integration.id} integration={integration} onCreated={setCreated} />
          ))}
        </ul>
      )}
    </div>
  );
}
