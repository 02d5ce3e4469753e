import { describe, expect, it } from 'vitest';
import { useTestApp } from '../testing/test-app.js';

describe('health and HTTP basics', () => {
  const t = useTestApp();

  it('answers ok once the database answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'NOT_FOUND' });
  });

  it('sends security headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('documents the API in OpenAPI', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json() as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/contact']));
  });
});

describe('writes from other sites', () => {
  const t = useTestApp();

  const contact = { email: 'a@example.com', message: 'hello' };

  it('refuses a write whose Origin is another site', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/contact', payload: contact, headers: { origin: 'https://evil.example' } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'FORBIDDEN' });
  });

  it('refuses a write a browser marks as cross-site', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/contact', payload: contact, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(response.statusCode).toBe(403);
  });

  it('accepts a write from our own origin', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/contact', payload: contact, headers: { origin: t.config.publicUrl, 'sec-fetch-site': 'same-origin' } });
    expect(response.statusCode).toBe(201);
  });
});
