import { useId, useState, type FormEvent, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { messages } from '../../../../shared/messages';
import { paths } from '../../../../shared/paths';
import { SITE_PAGE_LABELS as LABELS, aboutInputSchema, faqInputSchema, newSitePageSchema, sitePageUpdateSchema, type FaqEntry, type SitePagesAdmin } from '../../../../shared/site-pages-schema';
import { errorMessage } from '../../../lib/api-client';
import { previewPage, useAdminPages, useChangePages } from '../api/site-pages';

/** The first problem a schema finds, as the form shows it. */
function problemOf(result: { success: boolean; error?: { issues: { message: string }[] } }): string | null {
  return result.success ? null : (result.error?.issues[0]?.message ?? messages.loading);
}

/** /admin's 'Pages' (issue 58): the About text, the Support questions, and the owner's own pages, in Markdown. */
export function PagesSection() {
  const { data, error, isPending } = useAdminPages();
  return (
    <section id="pages" aria-labelledby="pages-heading" className="mb-5">
      <h2 id="pages-heading" className="h4">Pages</h2>
      {isPending && <p role="status">{messages.loading}</p>}
      {error && <Alert variant="danger">{errorMessage(error)}</Alert>}
      {data && <PagesForms loaded={data} />}
    </section>
  );
}

type Notice = { problem?: string; done?: string };
type Notices = [Record<string, Notice>, (name: string, notice: Notice) => void];

/**
 * Each form is keyed by what was loaded for it, so a save's answer starts it again from what is
 * stored; the notices live here, above the keys, so that they outlive that.
 */
function PagesForms({ loaded }: { loaded: SitePagesAdmin }) {
  const [notices, setNotices] = useState<Record<string, Notice>>({});
  const shared: Notices = [notices, (name, notice) => setNotices((current) => ({ ...current, [name]: notice }))];
  return (
    <>
      <AboutForm key={JSON.stringify(loaded.about)} loaded={loaded.about} notices={shared} />
      <FaqForm key={JSON.stringify(loaded.faq)} loaded={loaded.faq} notices={shared} />
      {loaded.pages.map((page) => (
        <OwnPageForm key={JSON.stringify(page)} page={page} notices={shared} />
      ))}
      <NewPageForm key={loaded.pages.length} notices={shared} />
    </>
  );
}

/** A save's outcome under its form: the problem, or that it is saved. */
function useOutcome([notices, setNotice]: Notices, name: string) {
  const change = useChangePages();
  const { problem, done } = notices[name] ?? {};
  const run = (input: Parameters<typeof change.mutate>[0], success: string) => {
    setNotice(name, {});
    change.mutate(input, { onSuccess: () => setNotice(name, { done: success }), onError: (err) => setNotice(name, { problem: errorMessage(err) }) });
  };
  const notice = (
    <>
      {problem && (
        <Alert variant="danger" role="alert">
          {problem}
        </Alert>
      )}
      {done && (
        <Alert variant="success" role="status">
          {done}
        </Alert>
      )}
    </>
  );
  return { run, pending: change.isPending, notices: notice, refuse: (message: string | null) => setNotice(name, message ? { problem: message } : {}) };
}

/** 'Page text' in Markdown, with a preview rendered by the server as the page will show it. */
function PageTextField({ value, onChange, rows = 10 }: { value: string; onChange: (value: string) => void; rows?: number }) {
  const id = useId();
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const showPreview = () => {
    setProblem(null);
    previewPage(value).then(
      (answer) => setPreview(answer.html),
      (err: unknown) => setProblem(errorMessage(err)),
    );
  };
  return (
    <Form.Group className="mb-2" controlId={id}>
      <Form.Label>{LABELS.pageText}</Form.Label>
      <Form.Control as="textarea" rows={rows} value={value} onChange={(event) => onChange(event.target.value)} className="font-monospace" />
      <Form.Text>Markdown, as in a blog.</Form.Text>
      <div className="mt-1">
        <Button size="sm" variant="outline-secondary" onClick={showPreview}>
          Preview
        </Button>
      </div>
      {problem && <Alert variant="danger">{problem}</Alert>}
      {preview !== null && (
        <div className="border rounded p-3 mt-2" aria-label="Preview" role="region">
          <div className="blog-body" dangerouslySetInnerHTML={{ __html: preview }} />
        </div>
      )}
    </Form.Group>
  );
}

function PageBox({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <div className="border rounded p-3 mb-3">
      <h3 className="h5">{title}</h3>
      {children}
    </div>
  );
}

function AboutForm({ loaded, notices }: { loaded: SitePagesAdmin['about']; notices: Notices }) {
  const [markdown, setMarkdown] = useState(loaded.markdown);
  const { run, pending, notices: notice, refuse } = useOutcome(notices, 'about');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = aboutInputSchema.safeParse({ markdown });
    if (!parsed.success) return refuse(problemOf(parsed));
    run({ kind: 'about', markdown: parsed.data.markdown }, 'The About page is saved.');
  };
  return (
    <PageBox title="About">
      <Form noValidate onSubmit={submit} aria-label="About">
        {notice}
        <PageTextField value={markdown} onChange={setMarkdown} rows={14} />
        <Button type="submit" disabled={pending}>
          {LABELS.savePage}
        </Button>
        {loaded.custom && (
          <Button className="ms-2" variant="outline-secondary" disabled={pending} onClick={() => run({ kind: 'reset', key: 'about' }, 'The About page shows the built-in text again.')}>
            Use the built-in text
          </Button>
        )}
      </Form>
    </PageBox>
  );
}

function FaqForm({ loaded, notices }: { loaded: SitePagesAdmin['faq']; notices: Notices }) {
  const [entries, setEntries] = useState<FaqEntry[]>(loaded.entries);
  const { run, pending, notices: notice, refuse } = useOutcome(notices, 'faq');
  const move = (from: number, to: number) => {
    const next = [...entries];
    const [entry] = next.splice(from, 1);
    next.splice(to, 0, entry!);
    setEntries(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = faqInputSchema.safeParse({ entries });
    if (!parsed.success) return refuse(problemOf(parsed));
    run({ kind: 'faq', entries: parsed.data.entries }, 'The Support page’s questions are saved.');
  };
  return (
    <PageBox title="Support: frequently asked questions">
      <Form noValidate onSubmit={submit} aria-label="Support questions">
        {notice}
        {entries.length === 0 && <p className="text-body-secondary small">No questions: the Support page shows only the contact form.</p>}
        <ol className="list-unstyled">
          {entries.map((entry, index) => {
            const n = index + 1;
            const change = (part: keyof FaqEntry, value: string) => setEntries(entries.map((each, at) => (at === index ? { ...each, [part]: value } : each)));
            return (
              <li key={index} className="mb-3 border-bottom pb-2">
                <Form.Group className="mb-1" controlId={`faq-${n}-question`}>
                  <Form.Label className="small mb-0">{`${LABELS.question} ${n}`}</Form.Label>
                  <Form.Control size="sm" value={entry.question} maxLength={300} onChange={(event) => change('question', event.target.value)} />
                </Form.Group>
                <Form.Group className="mb-1" controlId={`faq-${n}-answer`}>
                  <Form.Label className="small mb-0">{`${LABELS.answer} ${n}`}</Form.Label>
                  <Form.Control as="textarea" rows={3} size="sm" value={entry.answer} onChange={(event) => change('answer', event.target.value)} />
                </Form.Group>
                <div className="d-flex gap-2">
                  <Button size="sm" variant="outline-secondary" disabled={index === 0} onClick={() => move(index, index - 1)}>{`Move question ${n} up`}</Button>
                  <Button size="sm" variant="outline-secondary" disabled={index === entries.length - 1} onClick={() => move(index, index + 1)}>{`Move question ${n} down`}</Button>
                  <Button size="sm" variant="outline-danger" onClick={() => setEntries(entries.filter((_, at) => at !== index))}>{`Remove question ${n}`}</Button>
                </div>
              </li>
            );
          })}
        </ol>
        <Button size="sm" variant="outline-primary" className="me-2" disabled={entries.length >= 50} onClick={() => setEntries([...entries, { question: '', answer: '' }])}>
          Add a question
        </Button>
        <Button type="submit" disabled={pending}>
          {LABELS.savePage}
        </Button>
        {loaded.custom && (
          <Button className="ms-2" variant="outline-secondary" disabled={pending} onClick={() => run({ kind: 'reset', key: 'faq' }, 'The Support page shows the built-in questions again.')}>
            Use the built-in questions
          </Button>
        )}
      </Form>
    </PageBox>
  );
}

function OwnPageForm({ page, notices }: { page: SitePagesAdmin['pages'][number]; notices: Notices }) {
  const [title, setTitle] = useState(page.title);
  const [markdown, setMarkdown] = useState(page.markdown);
  const { run, pending, notices: notice, refuse } = useOutcome(notices, `page ${page.slug}`);
  const address = paths.sitePage(page.slug);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = sitePageUpdateSchema.safeParse({ title, markdown });
    if (!parsed.success) return refuse(problemOf(parsed));
    run({ kind: 'update', slug: page.slug, ...parsed.data }, 'The page is saved.');
  };
  return (
    <PageBox title={<a href={address}>{address}</a>}>
      <Form noValidate onSubmit={submit} aria-label={`Page ${address}`}>
        {notice}
        <Form.Group className="mb-2" controlId={`page-${page.slug}-title`}>
          <Form.Label>{LABELS.title}</Form.Label>
          <Form.Control value={title} maxLength={120} onChange={(event) => setTitle(event.target.value)} />
        </Form.Group>
        <PageTextField value={markdown} onChange={setMarkdown} />
        <Button type="submit" disabled={pending}>
          {LABELS.savePage}
        </Button>
        <Button className="ms-2" variant="outline-danger" disabled={pending} onClick={() => run({ kind: 'delete', slug: page.slug }, 'The page is removed.')}>
          Delete page
        </Button>
      </Form>
    </PageBox>
  );
}

function NewPageForm({ notices }: { notices: Notices }) {
  const [title, setTitle] = useState('');
  const [slug, setSlug] = useState('');
  const [markdown, setMarkdown] = useState('');
  const { run, pending, notices: notice, refuse } = useOutcome(notices, 'new-page');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = newSitePageSchema.safeParse({ title, slug, markdown });
    if (!parsed.success) return refuse(problemOf(parsed));
    run({ kind: 'create', ...parsed.data }, `The page is at ${paths.sitePage(parsed.data.slug)}; link it from the navigation in ‘Site’.`);
  };
  return (
    <PageBox title={LABELS.newPage}>
      <Form noValidate onSubmit={submit} aria-label={LABELS.newPage}>
        {notice}
        <Form.Group className="mb-2" controlId="new-page-title">
          <Form.Label>{LABELS.title}</Form.Label>
          <Form.Control value={title} maxLength={120} onChange={(event) => setTitle(event.target.value)} />
        </Form.Group>
        <Form.Group className="mb-2" controlId="new-page-address">
          <Form.Label>{LABELS.address}</Form.Label>
          <Form.Control value={slug} maxLength={80} placeholder="opening-hours" aria-describedby="new-page-address-help" onChange={(event) => setSlug(event.target.value)} />
          <Form.Text id="new-page-address-help">The page will be at /page/{slug || 'opening-hours'}: lowercase letters and digits joined by hyphens.</Form.Text>
        </Form.Group>
        <PageTextField value={markdown} onChange={setMarkdown} />
        <Button type="submit" disabled={pending}>
          {LABELS.newPage}
        </Button>
      </Form>
    </PageBox>
  );
}
