import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { ApiErrorBody } from '../../../../shared/api-error';
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../../lib/api-client';
import { readServerSentEvents } from './read-server-sent-events';

/** What `POST /api/ai/generate` streams (see its OpenAPI description). */
export interface GenerationHandlers {
  /** The model that really answered. */
  onMeta?: (meta: { model: string; label: string }) => void;
  /** The whole (sanitised) blog so far, each time it grows. */
  onDelta?: (html: string) => void;
}

export interface GeneratedBlog {
  html: string;
  model: string;
}

const CONNECTION_LOST = 'The connection was lost before the blog was finished. Please try again.';

/**
 * Asks the server for a random blog and follows its server-sent events: read through `fetch`,
 * since `EventSource` can only send GET. Every failure becomes an `ApiError`.
 */
export async function generateBlog(signal: AbortSignal, handlers: GenerationHandlers = {}): Promise<GeneratedBlog> {
  let response: Response;
  try {
    response = await fetch('/api/ai/generate', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'text/event-stream' },
      signal,
    });
  } catch (err) {
    if (signal.aborted) throw err;
    throw new ApiError(0, 'NETWORK', NETWORK_ERROR_MESSAGE);
  }
  if (!response.ok || !response.body) throw await errorFromResponse(response);

  try {
    for await (const { event, data } of readServerSentEvents(response.body)) {
      const payload = JSON.parse(data) as Record<string, string>;
      if (event === 'meta') handlers.onMeta?.({ model: payload.model ?? '', label: payload.label ?? '' });
      else if (event === 'delta') handlers.onDelta?.(payload.html ?? '');
      else if (event === 'done') return { html: payload.html ?? '', model: payload.model ?? '' };
      else if (event === 'error') {
        throw new ApiError(502, payload.error ?? 'AI_ERROR', payload.message ?? 'The blog could not be generated.');
      }
    }
  } catch (err) {
    if (err instanceof ApiError || signal.aborted) throw err;
    throw new ApiError(0, 'NETWORK', CONNECTION_LOST);
  }
  throw new ApiError(0, 'NETWORK', CONNECTION_LOST);
}

async function errorFromResponse(response: Response): Promise<ApiError> {
  let body: Partial<ApiErrorBody> | undefined;
  try {
    body = (await response.json()) as Partial<ApiErrorBody>;
  } catch {
    body = undefined;
  }
  return new ApiError(
    response.status,
    body?.error ?? `HTTP_${response.status}`,
    body?.message ?? `The server answered ${response.status} ${response.statusText}.`,
  );
}

/**
 * Runs one generation at a time and keeps what it has written so far; leaving the page stops
 * the generation (the server then stops the provider).
 */
export function useGenerateBlog() {
  const [model, setModel] = useState<string | null>(null);
  const [html, setHtml] = useState('');
  const controllerRef = useRef<AbortController | null>(null);

  useEffect(() => () => controllerRef.current?.abort(), []);

  const mutation = useMutation({
    mutationFn: () => {
      controllerRef.current?.abort();
      const controller = new AbortController();
      controllerRef.current = controller;
      setHtml('');
      return generateBlog(controller.signal, { onMeta: (meta) => setModel(meta.model), onDelta: setHtml });
    },
  });

  return {
    generate: () => mutation.mutate(),
    isPending: mutation.isPending,
    error: mutation.error,
    /** The model that answered the latest generation, once it did. */
    model,
    /** The blog so far (sanitised by the server). */
    html,
    /** The finished blog, once it is complete. */
    result: mutation.data ?? null,
  };
}
