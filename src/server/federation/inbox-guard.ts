import { verifyRequest, type Context } from '@fedify/fedify';

/**
 * What an inbox POST must pass before Fedify reads it (issue 42). Fedify expands an activity's
 * JSON-LD, and so fetches every `@context` it names, before it looks at the HTTP signature; and
 * the JSON-LD processor recurses, so a body nested a few thousand levels deep overflows the stack.
 * Here the body's shape is bounded first (cheap, nothing fetched), then the HTTP signature is
 * verified: the only request made before that is for the signing key the `Signature` header
 * names, through the address guard. An unsigned or badly signed POST gets 401 and nothing more.
 *
 * An activity with an Object Integrity Proof but no HTTP signature is refused too: its proof can
 * only be checked by reading the body as JSON-LD. Mastodon, Misskey and Fedify sign every delivery.
 */

/** Deeper than any real activity (Fedify's own JSON-LD walks stop at 64), far short of a stack overflow. */
export const INBOX_MAX_DEPTH = 64;
/** Values (objects, arrays, strings, numbers…) in one activity: a long post with many tags has a few hundred. */
export const INBOX_MAX_VALUES = 20_000;

/** Why a body is refused before anything reads it as JSON-LD, or null when its shape is fine. */
export function inboxBodyProblem(text: string): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'The body is not JSON.';
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return 'An activity is a JSON object.';
  // Walked with a stack of our own: a recursive walk is what overflows on deep nesting.
  const pending: Array<{ value: object; depth: number }> = [{ value: json, depth: 1 }];
  let values = 1;
  while (pending.length > 0) {
    const { value, depth } = pending.pop()!;
    const children: unknown[] = Array.isArray(value) ? value : Object.values(value);
    values += children.length;
    if (values > INBOX_MAX_VALUES) return `An activity holds at most ${INBOX_MAX_VALUES} values.`;
    for (const child of children) {
      if (child === null || typeof child !== 'object') continue;
      if (depth + 1 > INBOX_MAX_DEPTH) return `An activity nests at most ${INBOX_MAX_DEPTH} levels deep.`;
      pending.push({ value: child, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * The inbox's checks, in order: the body's shape (400), a signature at all (401), the signature
 * verified against the key its `keyId` names (401). Null: Fedify may read the activity.
 */
export async function checkInboxRequest(request: Request, loaders: Pick<Context<void>, 'documentLoader' | 'contextLoader'>): Promise<Response | null> {
  const problem = inboxBodyProblem(await request.clone().text());
  if (problem) return plain(400, problem);
  if (!request.headers.has('signature') && !request.headers.has('signature-input')) return plain(401, 'An activity must carry an HTTP signature.');
  // Fedify's own verification, with the federation's loaders (cached, and held to public addresses).
  const key = await verifyRequest(request, { documentLoader: loaders.documentLoader, contextLoader: loaders.contextLoader }).catch(() => null);
  if (!key) return plain(401, 'Failed to verify the request signature.');
  return null;
}

/**
 * An error Fedify throws while reading a signed activity that is the activity's fault (a context
 * that cannot be loaded or is not JSON-LD, a value of the wrong kind): the sender gets 400, not
 * 500. Anything else (the database, a bug) stays a 500.
 */
export function isUnreadableActivityError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof RangeError || error instanceof SyntaxError) return true;
  return error.name.startsWith('jsonld.') || ['FetchError', 'UrlError', 'NonPublicAddressError', 'InvalidContextReferenceError'].includes(error.name);
}

function plain(status: number, message: string): Response {
  return new Response(message, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}
