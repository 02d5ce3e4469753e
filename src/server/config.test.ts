import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const dataDir = () => mkdtempSync(path.join(os.tmpdir(), 'blog-config-'));

describe('configuration', () => {
  it('has working defaults', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(3000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.requireEmailVerification).toBe(true);
    expect(config.trustProxy).toBe(false);
    expect(config.ai.model).toBe('gpt-3.5-turbo');
    expect(config.s3).toBeUndefined();
    expect(config.socialProviders).toEqual({});
    expect(config.sitemapPartSize).toBe(50_000);
    expect(config.serveSourceMaps).toBe(false);
  });

  it('reads the storage sweep: an hour of grace and an hourly run by default, the older interval name still honoured', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).storageSweep).toEqual({ intervalMs: 3_600_000, graceMs: 3_600_000 });
    expect(loadConfig({ DATA_DIR: dir, STORAGE_SWEEP_GRACE_MINUTES: '0', STORAGE_SWEEP_MINUTES: '15' }).storageSweep).toEqual({ intervalMs: 900_000, graceMs: 0 });
    expect(loadConfig({ DATA_DIR: dir, INLINE_IMAGE_SWEEP_MINUTES: '30' }).storageSweep.intervalMs).toBe(1_800_000);
    expect(loadConfig({ DATA_DIR: dir, INLINE_IMAGE_SWEEP_MINUTES: '30', STORAGE_SWEEP_MINUTES: '5' }).storageSweep.intervalMs).toBe(300_000);
    expect(() => loadConfig({ DATA_DIR: dir, STORAGE_SWEEP_GRACE_MINUTES: '-1' })).toThrow('STORAGE_SWEEP_GRACE_MINUTES must be 0 or more');
    expect(() => loadConfig({ DATA_DIR: dir, STORAGE_SWEEP_MINUTES: '0' })).toThrow('STORAGE_SWEEP_MINUTES must be positive');
  });

  it('generates the auth secret once and keeps it readable by the owner only', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).authSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).authSecret).toBe(first);
    expect(statSync(path.join(dir, 'auth-secret')).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['PORT', 'abc', /^Invalid configuration: PORT /],
    ['PORT', '70000', /^Invalid configuration: PORT /],
    ['DATABASE_URL', 'mysql://x', /^Invalid configuration: DATABASE_URL must start with postgres:/],
    ['PUBLIC_URL', 'not a url', /^Invalid configuration: PUBLIC_URL must be a URL/],
    ['AUTH_REQUIRE_EMAIL_VERIFICATION', 'maybe', /^Invalid configuration: AUTH_REQUIRE_EMAIL_VERIFICATION must be true or false/],
    ['CONTACT_TO', 'nobody', /^Invalid configuration: CONTACT_TO must be an e-mail address/],
    ['SMTP_URL', 'http://mail', /^Invalid configuration: SMTP_URL /],
    ['AUTH_SECRET', 'short', /^Invalid configuration: AUTH_SECRET must be at least 32 characters/],
    ['SITEMAP_PART_SIZE', '50001', /^Invalid configuration: SITEMAP_PART_SIZE must be at most 50000/],
    ['SITEMAP_PART_SIZE', '5', /^Invalid configuration: SITEMAP_PART_SIZE must be at least 10/],
    ['GITHUB_CLIENT_ID', 'id-without-secret', /^Invalid configuration: GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET must be set together/],
  ])('refuses a bad %s with one line naming it', (name, value, expected) => {
    const attempt = () => loadConfig({ DATA_DIR: dataDir(), [name]: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(expected);
    try {
      attempt();
    } catch (err) {
      expect((err as Error).message).not.toContain('\n');
    }
  });

  it('reads proxies, social providers, S3 and empty values', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      TRUST_PROXY: '10.0.0.1, 10.0.0.2',
      GITHUB_CLIENT_ID: 'gh-id',
      GITHUB_CLIENT_SECRET: 'gh-secret',
      S3_BUCKET: 'images',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      DATABASE_URL: '',
      PUBLIC_URL: 'https://blog.example.com/',
    });
    expect(config.trustProxy).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(config.socialProviders).toEqual({ github: { clientId: 'gh-id', clientSecret: 'gh-secret' } });
    expect(config.s3).toMatchObject({ bucket: 'images', endpoint: 'http://127.0.0.1:9000', region: 'us-east-1' });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe('https://blog.example.com');
  });

  it('reads MODERATOR_EMAILS as lower-cased addresses, and refuses anything else', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).moderatorEmails).toEqual([]);
    expect(loadConfig({ DATA_DIR: dir, MODERATOR_EMAILS: ' Ann@Example.com,, bob@example.org ' }).moderatorEmails).toEqual(['ann@example.com', 'bob@example.org']);
    expect(() => loadConfig({ DATA_DIR: dir, MODERATOR_EMAILS: 'ann@example.com, nobody' })).toThrow(/^Invalid configuration: MODERATOR_EMAILS must be e-mail addresses separated by commas/);
  });

  it('reads MAIL_FROM as an address and the display name it may give, and refuses anything else', () => {
    const dir = dataDir();
    const from = (MAIL_FROM?: string) => loadConfig({ DATA_DIR: dir, ...(MAIL_FROM === undefined ? {} : { MAIL_FROM }) }).mail.from;
    expect(from()).toEqual({ address: 'no-reply@localhost', name: null });
    expect(from(' desk@harbour.example ')).toEqual({ address: 'desk@harbour.example', name: null });
    expect(from('Harbour Desk <desk@harbour.example>')).toEqual({ address: 'desk@harbour.example', name: 'Harbour Desk' });
    expect(from('"Harbour, Ltd." <desk@harbour.example>')).toEqual({ address: 'desk@harbour.example', name: 'Harbour, Ltd.' });
    expect(from('<desk@harbour.example>')).toEqual({ address: 'desk@harbour.example', name: null });
    expect(() => from('Harbour Desk')).toThrow(/MAIL_FROM must be an e-mail address, or a name and an address/);
  });

  it('reads FEDERATION (on by default) and FEDERATION_ALLOW_PRIVATE_ADDRESS (off by default)', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).federation).toEqual({ enabled: true, allowPrivateAddress: false });
    expect(loadConfig({ DATA_DIR: dir, FEDERATION: 'false', FEDERATION_ALLOW_PRIVATE_ADDRESS: 'true' }).federation).toEqual({ enabled: false, allowPrivateAddress: true });
    expect(() => loadConfig({ DATA_DIR: dir, FEDERATION: 'maybe' })).toThrow('FEDERATION must be true or false');
  });

  it('refuses to start where fetch would go through a proxy the public-address check cannot see past (issue 56)', () => {
    const dir = dataDir();
    const line = /^Invalid configuration: NODE_USE_ENV_PROXY sends outgoing requests through HTTPS_PROXY, where federation and webhooks cannot check that the address they reach is public; unset NODE_USE_ENV_PROXY \(or HTTPS_PROXY\), or set FEDERATION=false and WEBHOOKS_ALLOW_PRIVATE_ADDRESS=true/;
    const proxied = { DATA_DIR: dir, HTTPS_PROXY: 'http://proxy.internal:3128' };
    for (const env of [{ ...proxied, NODE_USE_ENV_PROXY: '1' }, { ...proxied, NODE_OPTIONS: '--max-old-space-size=300 --use-env-proxy' }]) {
      const attempt = () => loadConfig(env);
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(line);
    }
    // Federation off is not enough: webhooks check their targets too.
    expect(() => loadConfig({ ...proxied, NODE_USE_ENV_PROXY: '1', FEDERATION: 'false' })).toThrow(line);
    expect(() => loadConfig({ DATA_DIR: dir, http_proxy: 'http://proxy.internal:3128', NODE_USE_ENV_PROXY: '1' })).toThrow(/through http_proxy/);
    // What Node ignores, or where nothing is left to check, starts.
    expect(loadConfig(proxied).federation.enabled).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, NODE_USE_ENV_PROXY: '1' }).federation.enabled).toBe(true);
    expect(loadConfig({ ...proxied, NODE_USE_ENV_PROXY: 'true' }).federation.enabled).toBe(true);
    expect(loadConfig({ ...proxied, NODE_USE_ENV_PROXY: '1', FEDERATION: 'false', WEBHOOKS_ALLOW_PRIVATE_ADDRESS: 'true' }).federation.enabled).toBe(false);
  });
});
