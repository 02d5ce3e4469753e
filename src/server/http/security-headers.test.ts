import { describe, expect, it } from 'vitest';
import { helmetHeaders } from './security-headers.js';

describe('helmetHeaders', () => {
  it("computes Helmet's own headers for the options once", () => {
    const headers = helmetHeaders({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'self'"], objectSrc: ["'none'"] } },
      frameguard: { action: 'deny' },
      strictTransportSecurity: false,
    });
    expect(headers['content-security-policy']).toBe("default-src 'self';object-src 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers).not.toHaveProperty('strict-transport-security');
  });

  it('refuses options Helmet refuses', () => {
    expect(() => helmetHeaders({ contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ['self'] } } })).toThrow();
  });
});
