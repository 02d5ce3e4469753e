/**
 * The page's one script: the stylesheet, and the app when it is wanted. The server says when
 * (`<html data-scripts>`, see `PageScripts`): at once for signed-in readers and the other
 * screens, or on the first touch (a press, a key, a focus) for an anonymous reader of a reading
 * page, who may never need it. Clicks and form submissions made before the app has hydrated
 * are held, and replayed on the same element once it has: the first press is not lost.
 * See docs/page-weight.md.
 */
import './bootstrap.scss';
import './styles.css';
import { PAGE_SCRIPTS_ATTRIBUTE, type PageScripts } from '../shared/page-render';

/** What counts as the reader's first touch: each comes before the click or the typing it starts. */
const FIRST_TOUCHES = ['pointerdown', 'touchstart', 'keydown', 'focusin'] as const;
/** What is held until the app has hydrated, then done again. */
const HELD = ['click', 'submit'] as const;

const held: Event[] = [];
let ready = false;
let loading = false;

/** A link to another page works without the app (the browser loads that page), so it goes. */
function worksWithoutTheApp(event: Event): boolean {
  const link = event.type === 'click' && event.target instanceof Element ? event.target.closest('a[href]') : null;
  return link !== null && !link.getAttribute('href')!.startsWith('#');
}

function hold(event: Event) {
  if (ready || worksWithoutTheApp(event)) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  held.push(event);
  loadApp();
}

/** Does again what was held, on the same element, now that the app listens (or without it, if it failed to load). */
function replay() {
  ready = true;
  for (const event of held.splice(0)) {
    // The element itself, or the nearest HTML element around it (a button's icon is SVG).
    let target = event.target instanceof Element ? event.target : null;
    while (target && !(target instanceof HTMLElement)) target = target.parentElement;
    if (!target?.isConnected) continue;
    if (event instanceof SubmitEvent && target instanceof HTMLFormElement) target.requestSubmit(event.submitter);
    else target.click();
  }
}

/** Resolves once the app has hydrated and its first effects have run (`data-hydrated`, set by AppLayout). */
function hydrated(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => document.documentElement.dataset.hydrated === 'true';
    if (done()) return resolve();
    const observer = new MutationObserver(() => {
      if (!done()) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-hydrated'] });
  });
}

function loadApp() {
  if (loading) return;
  loading = true;
  for (const type of FIRST_TOUCHES) window.removeEventListener(type, loadApp, true);
  import('./main')
    .then(({ start }) => start())
    .then(hydrated)
    // A task later, so the renders the first effects asked for (what waits for hydration) are done.
    .then(() => new Promise((resolve) => setTimeout(resolve)))
    .then(replay)
    .catch((error: unknown) => {
      replay();
      throw error;
    });
}

for (const type of HELD) window.addEventListener(type, hold, true);
// A reader already in a field touched the page before this script ran (on a slow network): the app comes at once.
const touchedAlready = document.activeElement !== null && document.activeElement !== document.body;
if ((document.documentElement.getAttribute(PAGE_SCRIPTS_ATTRIBUTE) as PageScripts | null) === 'on-first-touch' && !touchedAlready) {
  for (const type of FIRST_TOUCHES) window.addEventListener(type, loadApp, { capture: true, passive: true });
} else {
  loadApp();
}
