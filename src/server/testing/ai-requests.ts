import { expect } from 'vitest';
import { BLOG_PROMPT } from '../ai/ai-provider.js';
import type { RecordedRequest } from './fake-openai-server.js';

/** Expects the one request the spec allows: a streamed chat completion of the blog prompt for `model`, with the key. */
export function expectSpecBlogRequest(request: RecordedRequest | undefined, key: string, model: string): void {
  expect(request!.method).toBe('POST');
  expect(request!.path).toBe('/v1/chat/completions');
  expect(request!.headers.authorization).toBe(`Bearer ${key}`);
  expect(request!.body).toEqual({
    model,
    messages: [{ role: 'user', content: BLOG_PROMPT }],
    temperature: 1,
    max_tokens: 256,
    top_p: 1,
    frequency_penalty: 0,
    presence_penalty: 0,
    stream: true,
  });
}
