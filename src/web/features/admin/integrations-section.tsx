import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { messages } from '../../../shared/messages';
import { newWebhookSchema, WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS, type Webhook, type WebhookDelivery, type WebhookEvent } from '../../../shared/webhook-schema';
import { LoadingPage } from '../../components/loading-page';
import { confirmIrreversible, useDialog, useRunOrTell } from '../../components/message-dialog';
import { errorMessage } from '../../lib/api-client';
import { useCreateWebhook } from './api/create-webhook';
import { GhostIntegrations } from './ghost-integrations';
import { useDeleteWebhook } from './api/delete-webhook';
import { useWebhooks } from './api/get-webhooks';
import { useSendWebhookTest } from './api/send-webhook-test';

type Field = 'event' | 'targetUrl' | 'secret';

const STATUS_LABELS: Record<WebhookDelivery['status'], string> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '');

function AddWebhookForm() {
  const create = useCreateWebhook();
  const [event, setEvent] = useState<WebhookEvent>('post.published');
  const [targetUrl, setTargetUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [shownSecret, setShownSecret] = useState<string | null>(null);

  const submit = async (form: FormEvent) => {
    form.preventDefault();
    setShownSecret(null);
    const parsed = newWebhookSchema.safeParse({ event, targetUrl, secret });
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as Field] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      const created = await create.mutateAsync(parsed.data);
      setShownSecret(created.secret);
      setTargetUrl('');
      setSecret('');
    } catch (err) {
      setErrors({ targetUrl: errorMessage(err) });
    }
  };

  return (
    <Form noValidate onSubmit={(form) => void submit(form)} className="mb-4" aria-label="Add a webhook">
      <div className="row g-3 align-items-start">
        <Form.Group className="col-md-3" controlId="webhook-event">
          <Form.Label>Event</Form.Label>
          <Form.Select value={event} onChange={(change) => setEvent(change.target.value as WebhookEvent)} isInvalid={!!errors.event}>
            {WEBHOOK_EVENTS.map((name) => (
              <option key={name} value={name}>
                {WEBHOOK_EVENT_LABELS[name]} ({name})
              </option>
            ))}
          </Form.Select>
          <Form.Control.Feedback type="invalid">{errors.event}</Form.Control.Feedback>
        </Form.Group>
        <Form.Group className="col-md-5" controlId="webhook-target-url">
          <Form.Label>Target URL</Form.Label>
          <Form.Control type="url" inputMode="url" placeholder="https://example.com/hooks/blog" value={targetUrl} onChange={(change) => setTargetUrl(change.target.value)} isInvalid={!!errors.targetUrl} />
          <Form.Control.Feedback type="invalid">{errors.targetUrl}</Form.Control.Feedback>
        </Form.Group>
        <Form.Group className="col-md-4" controlId="webhook-secret">
          <Form.Label>Secret</Form.Label>
          <Form.Control type="text" autoComplete="off" spellCheck={false} value={secret} onChange={(change) => setSecret(change.target.value)} isInvalid={!!errors.secret} aria-describedby="webhook-secret-help" />
          <Form.Text id="webhook-secret-help">At least 16 characters; leave it empty to have one made.</Form.Text>
          <Form.Control.Feedback type="invalid">{errors.secret}</Form.Control.Feedback>
        </Form.Group>
      </div>
      <Button type="submit" className="mt-3" disabled={create.isPending}>
        {create.isPending ? messages.loading : 'Add webhook'}
      </Button>
      {shownSecret && (
        <Alert variant="success" className="mt-3" role="status">
          Webhook added. Its secret, shown this once: <code className="text-break">{shownSecret}</code>
        </Alert>
      )}
    </Form>
  );
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  if (webhook.deliveries.length === 0) return <p className="text-body-secondary small">No deliveries yet.</p>;
  return (
    <Table responsive size="sm" aria-label={`Recent deliveries to ${webhook.targetUrl}`}>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Status</th>
          <th scope="col">Attempts</th>
          <th scope="col">Last answer</th>
        </tr>
      </thead>
      <tbody>
        {webhook.deliveries.map((delivery) => (
          <tr key={delivery.id}>
            <td>{when(delivery.lastAttemptAt ?? delivery.createdAt)}</td>
            <td>{STATUS_LABELS[delivery.status]}</td>
            <td>{delivery.attempts}</td>
            <td className="text-break small">
              {delivery.lastHttpStatus !== null && <span className="me-2">HTTP {delivery.lastHttpStatus}</span>}
              {delivery.lastResponse ?? ''}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function WebhookItem({ webhook }: { webhook: Webhook }) {
  const sendTest = useSendWebhookTest();
  const remove = useDeleteWebhook();
  const showDialog = useDialog();
  const run = useRunOrTell();
  const confirmDelete = async () => {
    if (await showDialog(confirmIrreversible('Delete this webhook?', `Nothing more will be sent to ${webhook.targetUrl}, and its deliveries are forgotten.`, 'Delete'))) {
      await run(() => remove.mutateAsync(webhook.id));
    }
  };
  return (
    <li className="list-group-item">
      <div className="d-flex flex-wrap justify-content-between gap-2 mb-2">
        <div>
          <h3 className="h6 mb-1">
            {WEBHOOK_EVENT_LABELS[webhook.event]} <code>{webhook.event}</code>
          </h3>
          <div className="text-break">{webhook.targetUrl}</div>
          <div className="small text-body-secondary">
            Secret {webhook.secretMasked} · added {when(webhook.createdAt)}
            {webhook.createdBy ? ` by ${webhook.createdBy}` : ''}
          </div>
        </div>
        <div className="d-flex gap-2 align-items-start">
          <Button size="sm" variant="outline-primary" disabled={sendTest.isPending} onClick={() => void run(() => sendTest.mutateAsync(webhook.id))}>
            Send test
          </Button>
          <Button size="sm" variant="outline-danger" disabled={remove.isPending} onClick={() => void confirmDelete()}>
            Delete
          </Button>
        </div>
      </div>
      <Deliveries webhook={webhook} />
    </li>
  );
}

/** /admin's 'Integrations' (issue 44): webhooks, their recent deliveries, 'Send test' and delete (docs/webhooks.md). */
export function IntegrationsSection() {
  const webhooks = useWebhooks();
  return (
    <section id="integrations" aria-labelledby="integrations-heading" className="mb-5">
      <h2 id="integrations-heading" className="h4">Integrations</h2>
      <GhostIntegrations />
      <h3 className="h5">Webhooks</h3>
      <p className="text-body-secondary">Webhooks tell another service when something happens here. Each request is signed with the webhook’s secret (header X-Webhook-Signature).</p>
      <AddWebhookForm />
      {webhooks.isPending ? (
        <LoadingPage />
      ) : webhooks.isError ? (
        <p className="text-danger">The webhooks could not be loaded. {errorMessage(webhooks.error)}</p>
      ) : webhooks.data.items.length === 0 ? (
        <p className="text-body-secondary">No webhooks yet.</p>
      ) : (
        <ul className="list-group" aria-label="Webhooks">
          {webhooks.data.items.map((webhook) => (
            <WebhookItem key={webhook.id} webhook={webhook} />
          ))}
        </ul>
      )}
    </section>
  );
}
