import type { ApiErrorBody } from '../../shared/api-error';
import type { ApiTransport } from '../../shared/page-render';

/** In the browser, `fetch`; on the server, the server's own in-process transport (see entry-server). */
let transport: ApiTransport = (path, init) => fetch(path, init);

export function setApiTransport(next: ApiTransport): void {
  transport = next;
}

/** An error the API answered with `{ error, message }`, or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** What every request that never reached the server says (the API client, Better Auth's, the AI stream). */
export const NETWORK_ERROR_MESSAGE = 'Could not reach the server. Check your connection and try again.';

/** The one HTTP client of the web app: same-origin, cookies included, errors as `ApiError`. */
export async function apiFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (init.body !== undefined && !(init.body instanceof FormData) && !headers.has('content-type')) {
    headers.set('content-type', 'application/json');
  }
  let response: Response;
  try {
    response = await transport(path, { ...init, headers, credentials: 'same-origin' });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK', NETWORK_ERROR_MESSAGE);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = body as Partial<ApiErrorBody> | undefined;
    throw new ApiError(
      response.status,
      error?.error ?? `HTTP_${response.status}`,
      error?.message ?? `The server answered ${response.status} ${response.statusText}.`,
    );
  }
  return body as T;
}

/** A message for the person, whatever was thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Please try again.';
}
