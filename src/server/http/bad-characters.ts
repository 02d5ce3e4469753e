import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.js';

/**
 * No text here may hold a NUL character: Postgres refuses it in `text` (so it would surface as a
 * 500), and no writer means one. It is bad input wherever it comes, so it is refused at the edge,
 * once: in the URL (path or query, however it is encoded), in any parsed body, and in the
 * multipart and auth bodies that their own readers parse (they call `rejectNul`).
 */
export const NUL_MESSAGE = 'The request contains a NUL character (U+0000), which no text may hold.';

const NUL = '\u0000';
/** A NUL in a URL arrives percent-encoded (`%00`), or raw from a client that sends bytes as they are. */
const NUL_IN_URL = /%00/i;
/** Deeper than any payload of ours: a body nested beyond it is refused rather than walked. */
const MAX_DEPTH = 32;

export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes(NUL);
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return false;
  if (depth > MAX_DEPTH) return true;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  return Object.entries(value).some(([key, item]) => key.includes(NUL) || containsNul(item, depth + 1));
}

/** Throws the 400 for a value (a form's fields, a parsed body) that holds a NUL anywhere. */
export function rejectNul(value: unknown): void {
  if (containsNul(value)) throw badRequest(NUL_MESSAGE);
}

export function registerBadCharacterGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const url = request.raw.url ?? '';
    if (NUL_IN_URL.test(url) || url.includes(NUL)) throw badRequest(NUL_MESSAGE);
  });
  app.addHook('preValidation', async (request) => {
    rejectNul(request.body);
  });
}
