import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Blog } from '../../../../shared/blog-schema';
import { errorMessage } from '../../../lib/api-client';
import { blogQueryKeys, invalidateBlogLists } from '../../../lib/blog-query-keys';
import { createBlog } from '../api/create-blog';
import { updateBlog } from '../api/update-blog';

export interface BlogText {
  title: string;
  blog: string;
}

/**
 * - `draft`: the text is saved to a server draft while typing; the first save creates the draft
 *   when `draftId` is null (/create), later ones change it (/edit of a draft).
 * - `local`: the blog is live (/edit of a published blog), so typing never changes it: the text is
 *   kept in this browser's localStorage under the blog's id until it is published or discarded.
 */
export type AutosaveTarget = { kind: 'draft'; draftId: string | null } | { kind: 'local'; blogId: string };

export type AutosaveStatus =
  | { state: 'idle' }
  | { state: 'saving' }
  | { state: 'saved' }
  | { state: 'local' }
  | { state: 'error'; message: string };

/** A pause in typing this long saves. */
const DEBOUNCE_MS = 1_500;
/**
 * Server saves are at least this far apart: edits are rate limited (60 in 10 minutes per user,
 * `BLOG_UPDATE_RATE_LIMIT`), and an afternoon of typing must leave room for Publish.
 */
const MIN_SERVER_GAP_MS = 12_000;
const LOCAL_DEBOUNCE_MS = 400;

const same = (a: BlogText, b: BlogText) => a.title === b.title && a.blog === b.blog;
const isBlank = (text: BlogText) => !text.title.trim() && !text.blog.trim();

export interface LocalEdit extends BlogText {
  savedAt: string;
}

const localKey = (blogId: string) => `blog-edit:${blogId}`;

/** The unpublished edits of a live blog kept in this browser, if any. */
export function readLocalEdit(blogId: string): LocalEdit | null {
  try {
    const raw = window.localStorage.getItem(localKey(blogId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<LocalEdit>;
    if (typeof parsed.title !== 'string' || typeof parsed.blog !== 'string' || typeof parsed.savedAt !== 'string') return null;
    return { title: parsed.title, blog: parsed.blog, savedAt: parsed.savedAt };
  } catch {
    return null;
  }
}

export function removeLocalEdit(blogId: string): void {
  try {
    window.localStorage.removeItem(localKey(blogId));
  } catch {
    // Storage unavailable (private mode, quota): nothing was kept, nothing to remove.
  }
}

function writeLocalEdit(blogId: string, text: BlogText): void {
  try {
    window.localStorage.setItem(localKey(blogId), JSON.stringify({ ...text, savedAt: new Date().toISOString() }));
  } catch {
    // Storage full or disabled: the leave guard still asks before the text is lost.
  }
}

interface AutosaverOptions {
  target: AutosaveTarget;
  saved: BlogText;
  onDraftCreated?: (blog: Blog) => void;
  onStatus: (status: AutosaveStatus) => void;
  queryClient: QueryClient;
}

/**
 * The autosave engine, plain (no React): made once per form, it holds the text as the server has
 * it (`baseline`), the form's text (`current`), the debounce timer and the queue of server saves.
 */
function createAutosaver({ target, saved, onDraftCreated, onStatus, queryClient }: AutosaverOptions) {
  let baseline = saved;
  let current = saved;
  let imageChosen = false;
  let draftId = target.kind === 'draft' ? target.draftId : null;
  let queue: Promise<unknown> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastServerSave = 0;
  let stopped = false;

  async function saveToServer() {
    const snapshot = current;
    if (same(snapshot, baseline) || (draftId === null && isBlank(snapshot))) return;
    onStatus({ state: 'saving' });
    lastServerSave = Date.now();
    try {
      let blog: Blog;
      if (draftId === null) {
        blog = await createBlog({ ...snapshot, image: null, status: 'draft' });
        draftId = blog.id;
        onDraftCreated?.(blog);
      } else {
        // No status: a draft stays a draft (and one published meanwhile elsewhere stays published).
        blog = await updateBlog({ id: draftId, values: { ...snapshot, image: null } });
      }
      queryClient.setQueryData(blogQueryKeys.detail(blog.id), blog);
      void invalidateBlogLists(queryClient);
      baseline = snapshot;
      onStatus(same(current, snapshot) ? { state: 'saved' } : { state: 'saving' });
    } catch (err) {
      onStatus({ state: 'error', message: errorMessage(err) });
    }
  }

  function enqueue() {
    queue = queue.then(saveToServer);
    return queue;
  }

  function schedule() {
    clearTimeout(timer);
    if (stopped) return;
    if (target.kind === 'local') {
      timer = setTimeout(() => keepLocally(), LOCAL_DEBOUNCE_MS);
      return;
    }
    const wait = Math.max(DEBOUNCE_MS, lastServerSave + MIN_SERVER_GAP_MS - Date.now());
    timer = setTimeout(() => {
      void enqueue().then(() => {
        // Typed on while the save ran: the next one follows.
        if (!same(current, baseline)) schedule();
      });
    }, wait);
  }

  function keepLocally() {
    if (target.kind !== 'local') return;
    if (same(current, baseline)) removeLocalEdit(target.blogId);
    else writeLocalEdit(target.blogId, current);
  }

  return {
    onChange(text: BlogText & { image?: File | null }) {
      imageChosen = Boolean(text.image);
      const next = { title: text.title, blog: text.blog };
      if (same(next, current)) return;
      current = next;
      if (target.kind === 'local') onStatus(same(next, baseline) ? { state: 'idle' } : { state: 'local' });
      else if (!same(next, baseline) && !(draftId === null && isBlank(next))) onStatus({ state: 'saving' });
      schedule();
    },
    /** Saves what is pending now (Submit, Save draft) and answers the draft's id, if there is one. */
    async flush(): Promise<string | null> {
      clearTimeout(timer);
      if (target.kind === 'draft') await enqueue();
      return draftId;
    },
    /** The form's text as it is now (taken when an explicit save starts, for `markSaved`). */
    snapshot: (): BlogText => current,
    /** After an explicit save (Submit, Save draft, Discard): this text is what the server has. */
    markSaved(text: BlogText, options: { stop?: boolean } = {}) {
      clearTimeout(timer);
      baseline = text;
      current = text;
      imageChosen = false;
      if (options.stop) stopped = true;
      if (target.kind === 'local') removeLocalEdit(target.blogId);
      onStatus(target.kind === 'local' ? { state: 'idle' } : { state: 'saved' });
    },
    /** Whether leaving now would lose something: text the server does not have, or a chosen image. */
    isDirty: () => !stopped && (imageChosen || !same(current, baseline)),
    /** The form goes away: a live blog's last keystrokes are still kept on this device. */
    dispose() {
      clearTimeout(timer);
      if (!stopped) keepLocally();
    },
  };
}

/**
 * Saves a blog form's text while it is being written. `saved` is the text as the server has it
 * (the form's starting point); `onChange` gets every change of the form; the guard asks before
 * leaving while `isDirty()`. Server saves run one at a time, in order, so a create is never sent
 * twice and Submit can wait for the last one with `flush()`. The options are read once: a
 * different blog gets a different form (the screens key it by id).
 */
export function useBlogAutosave(options: {
  target: AutosaveTarget;
  saved: BlogText;
  onDraftCreated?: (blog: Blog) => void;
  /** 'saved' when the screen opens right after an explicit save. */
  initialStatus?: AutosaveStatus;
}) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<AutosaveStatus>(options.initialStatus ?? { state: 'idle' });
  const [autosaver] = useState(() => createAutosaver({ ...options, onStatus: setStatus, queryClient }));
  useEffect(() => () => autosaver.dispose(), [autosaver]);
  return { status, ...autosaver };
}
