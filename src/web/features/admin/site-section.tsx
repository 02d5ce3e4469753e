import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { messages } from '../../../shared/messages';
import type { SiteInfo } from '../../../shared/page-render';
import {
  DEFAULT_ROLE_CHOICES,
  REGISTRATION_LABELS,
  ROLE_LABELS,
  SHOW_AUTHORS_BY_LABELS,
  SITE_SETTINGS_LABELS as LABELS,
  siteSettingsInputSchema,
  type SiteImageKind,
  type SiteSettingsAnswer,
} from '../../../shared/site-settings-form';
import { REGISTRATION_MODES, SHOW_AUTHORS_BY, type ShowAuthorsBy, type SiteSettings } from '../../../shared/site-settings-schema';
import { errorMessage } from '../../lib/api-client';
import { accentStyles } from '../../lib/page-meta';
import { useSite, useUpdateSite } from '../../lib/site-context';
import { useSaveSiteSettings, useSiteSettings } from './api/site-settings';

/** /admin's 'Site' section (issue 44): the site's name, look, links, and who may join. */
export function SiteSection() {
  const { data, error, isPending } = useSiteSettings();
  // Here, not in the form: a save's answer starts the form again, and its notice must outlive that.
  const [saved, setSaved] = useState(false);
  return (
    <section id="site" aria-labelledby="site-heading" className="mb-5">
      <h2 id="site-heading" className="h4">Site</h2>
      {isPending && <p role="status">{messages.loading}</p>}
      {error && <Alert variant="danger">{errorMessage(error)}</Alert>}
      {/* Keyed by what was loaded, so a save's answer starts the form again from what is stored. */}
      {data && <SiteSettingsForm key={JSON.stringify(data)} loaded={data} saved={saved} setSaved={setSaved} />}
    </section>
  );
}

function SiteSettingsForm({ loaded, saved, setSaved }: { loaded: SiteSettingsAnswer; saved: boolean; setSaved: (saved: boolean) => void }) {
  const [settings, setSettings] = useState<SiteSettings>(loaded.settings);
  const [accent, setAccent] = useState(loaded.settings.accentColour ?? '');
  const [files, setFiles] = useState<Partial<Record<SiteImageKind, File>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveSiteSettings();
  const site = useSite();
  const updateSite = useUpdateSite();
  const set = <K extends keyof SiteSettings>(key: K, value: SiteSettings[K]) => {
    setSaved(false);
    setSettings((current) => ({ ...current, [key]: value }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(null);
    setSaved(false);
    const parsed = siteSettingsInputSchema.safeParse({ ...settings, accentColour: accent.trim() || null });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = LABELS[issue.path[0] as keyof typeof LABELS];
      setProblem(field && !issue.message.includes(field.toLowerCase()) ? `${field}: ${issue.message}` : issue.message);
      return;
    }
    save.mutate(
      { settings: parsed.data, files },
      {
        onSuccess: (answer) => {
          setSaved(true);
          updateSite(siteInfoAfterSave(site, answer));
          showAccent(answer.settings.accentColour);
        },
        onError: (err) => setProblem(errorMessage(err)),
      },
    );
  };

  const links = settings.navigation;
  const setLinks = (next: SiteSettings['navigation']) => set('navigation', next);
  const move = (from: number, to: number) => {
    const next = [...links];
    const [link] = next.splice(from, 1);
    next.splice(to, 0, link!);
    setLinks(next);
  };

  return (
    <Form noValidate onSubmit={submit} aria-labelledby="site-heading">
      {problem && (
        <Alert variant="danger" role="alert">
          {problem}
        </Alert>
      )}
      {saved && (
        <Alert variant="success" role="status">
          The site’s settings are saved.
        </Alert>
      )}
      <Form.Group className="mb-3" controlId="site-name">
        <Form.Label>{LABELS.siteName}</Form.Label>
        <Form.Control value={settings.siteName} maxLength={100} required onChange={(event) => set('siteName', event.target.value)} />
      </Form.Group>
      <Form.Group className="mb-3" controlId="site-description">
        <Form.Label>{LABELS.description}</Form.Label>
        <Form.Control as="textarea" rows={2} value={settings.description} maxLength={300} onChange={(event) => set('description', event.target.value)} />
      </Form.Group>
      <ImageField kind="logo" url={loaded.logoUrl} onChoose={(file) => setFiles((current) => ({ ...current, logo: file }))} />
      <ImageField kind="icon" url={loaded.iconUrl} onChoose={(file) => setFiles((current) => ({ ...current, icon: file }))} />
      <Form.Group className="mb-3" controlId="site-accent-colour">
        <Form.Label>{LABELS.accentColour}</Form.Label>
        <div className="d-flex align-items-center gap-2">
          <Form.Control value={accent} placeholder="#0d6efd" maxLength={7} aria-describedby="site-accent-colour-help" onChange={(event) => setAccent(event.target.value)} style={{ maxWidth: '10rem' }} />
          {/^#[0-9a-f]{6}$/i.test(accent.trim()) && <span aria-hidden="true" className="border rounded d-inline-block" style={{ width: 32, height: 32, background: accent.trim() }} />}
        </div>
        <Form.Text id="site-accent-colour-help">A colour like #0d6efd, dark enough for white text on it (contrast 4.5:1); empty for the theme’s own.</Form.Text>
      </Form.Group>
      <fieldset className="mb-3">
        <legend className="form-label fs-6">{LABELS.navigation}</legend>
        {links.length === 0 && <p className="text-body-secondary small">No links of the site’s own in the navbar.</p>}
        <ol className="list-unstyled">
          {links.map((link, index) => {
            const n = index + 1;
            const change = (part: 'label' | 'url', value: string) => setLinks(links.map((each, at) => (at === index ? { ...each, [part]: value } : each)));
            return (
              <li key={index} className="d-flex flex-wrap align-items-end gap-2 mb-2">
                <Form.Group controlId={`site-link-${n}-label`}>
                  <Form.Label className="small mb-1">{`Link ${n} label`}</Form.Label>
                  <Form.Control size="sm" value={link.label} maxLength={40} onChange={(event) => change('label', event.target.value)} />
                </Form.Group>
                <Form.Group controlId={`site-link-${n}-url`}>
                  <Form.Label className="small mb-1">{`Link ${n} URL`}</Form.Label>
                  <Form.Control size="sm" value={link.url} maxLength={500} placeholder="/about or https://…" onChange={(event) => change('url', event.target.value)} />
                </Form.Group>
                <Button size="sm" variant="outline-secondary" disabled={index === 0} onClick={() => move(index, index - 1)}>{`Move link ${n} up`}</Button>
                <Button size="sm" variant="outline-secondary" disabled={index === links.length - 1} onClick={() => move(index, index + 1)}>{`Move link ${n} down`}</Button>
                <Button size="sm" variant="outline-danger" onClick={() => setLinks(links.filter((_, at) => at !== index))}>{`Remove link ${n}`}</Button>
              </li>
            );
          })}
        </ol>
        <Button size="sm" variant="outline-primary" disabled={links.length >= 10} onClick={() => setLinks([...links, { label: '', url: '' }])}>
          Add a link
        </Button>
      </fieldset>
      <Form.Group className="mb-3" controlId="site-footer-text">
        <Form.Label>{LABELS.footerText}</Form.Label>
        <Form.Control as="textarea" rows={2} value={settings.footerText} maxLength={500} onChange={(event) => set('footerText', event.target.value)} />
      </Form.Group>
      <Form.Group className="mb-3" controlId="site-tip-jar">
        <Form.Label>{LABELS.tipJarUrl}</Form.Label>
        <Form.Control value={settings.tipJarUrl} maxLength={500} placeholder="https://…" aria-describedby="site-tip-jar-help" onChange={(event) => set('tipJarUrl', event.target.value)} />
        <Form.Text id="site-tip-jar-help">More’s ‘Tip jar’ item; empty removes it.</Form.Text>
      </Form.Group>
      <Form.Group className="mb-3" controlId="site-default-role">
        <Form.Label>{LABELS.defaultRole}</Form.Label>
        <Form.Select value={settings.defaultRole} onChange={(event) => set('defaultRole', event.target.value as SiteSettings['defaultRole'])}>
          {DEFAULT_ROLE_CHOICES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group className="mb-3" controlId="site-registration">
        <Form.Label>{LABELS.registration}</Form.Label>
        <Form.Select value={settings.registration} onChange={(event) => set('registration', event.target.value as SiteSettings['registration'])}>
          {REGISTRATION_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {REGISTRATION_LABELS[mode]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Check className="mb-3" id="site-review" type="checkbox" label={LABELS.reviewNewBlogs} checked={settings.reviewNewBlogs} onChange={(event) => set('reviewNewBlogs', event.target.checked)} />
      <Form.Group className="mb-3" controlId="site-show-authors-by">
        <Form.Label>{LABELS.showAuthorsBy}</Form.Label>
        <Form.Select value={settings.showAuthorsBy} aria-describedby="site-show-authors-by-help" onChange={(event) => set('showAuthorsBy', event.target.value as ShowAuthorsBy)}>
          {SHOW_AUTHORS_BY.map((choice) => (
            <option key={choice} value={choice}>
              {SHOW_AUTHORS_BY_LABELS[choice]}
            </option>
          ))}
        </Form.Select>
        <Form.Text id="site-show-authors-by-help">How cards, blog and author pages, search, comments, feeds, mails and other servers name an author; with ‘Name’ no author’s e-mail is shown.</Form.Text>
      </Form.Group>
      <Button type="submit" variant="primary" disabled={save.isPending}>
        {save.isPending ? messages.loading : 'Save'}
      </Button>
    </Form>
  );
}

function ImageField({ kind, url, onChoose }: { kind: SiteImageKind; url: string | null; onChoose: (file: File | undefined) => void }) {
  const label = LABELS[kind];
  return (
    <Form.Group className="mb-3" controlId={`site-${kind}`}>
      <Form.Label>{label}</Form.Label>
      {url && (
        <div className="mb-2">
          <img src={url} alt={`The current ${kind}`} height={kind === 'icon' ? 32 : 40} />
        </div>
      )}
      <Form.Control type="file" accept="image/*" onChange={(event) => onChoose((event.target as HTMLInputElement).files?.[0])} />
    </Form.Group>
  );
}

/** What the page's navbar, footer and title show once the save is in (the next pages come from the server). */
function siteInfoAfterSave(site: SiteInfo, { settings, logoUrl, iconUrl }: SiteSettingsAnswer): SiteInfo {
  return { ...site, name: settings.siteName, description: settings.description, accentColour: settings.accentColour, navigation: settings.navigation, footerText: settings.footerText, showAuthorsBy: settings.showAuthorsBy, tipJarUrl: settings.tipJarUrl, logoUrl, iconUrl };
}

/** The accent's rules in the page's head, as the server writes them (`page-head.server.tsx`). */
function showAccent(accent: string | null) {
  document.getElementById('site-accent')?.remove();
  const css = accentStyles(accent);
  if (!css) return;
  const style = document.createElement('style');
  style.id = 'site-accent';
  style.textContent = css;
  document.head.append(style);
}
