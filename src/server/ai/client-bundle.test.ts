import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The provider key must never reach the browser. The web app is built here (about 3 s) with
 * secrets planted in the build's environment, under the names a careless config would expose,
 * and every emitted file (source maps included) is searched for them.
 */

const root = path.resolve(import.meta.dirname, '../../..');
const viteBin = path.join(root, 'node_modules/vite/bin/vite.js');

const PLANTED = {
  AI_API_KEY: 'sk-planted-provider-key-4f1c9a7e2b',
  VITE_AI_API_KEY: 'sk-planted-vite-prefixed-key-8d3e5a',
  OPENAI_API_KEY: 'sk-planted-openai-key-0b7c2f9d1e',
  AUTH_SECRET: 'planted-auth-secret-6a2d8e4f1c0b9a7e5d3c1b',
  S3_SECRET_ACCESS_KEY: 'planted-s3-secret-3e9b1d7f5a',
  DATABASE_URL: 'postgres://planted-user:planted-db-password-91c3@127.0.0.1:5432/blog',
  SMTP_URL: 'smtp://planted-mail-user:planted-smtp-password-7f2a@127.0.0.1:25',
};

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('the built client bundle', () => {
  let outDir: string;
  let files: Array<{ name: string; text: string }>;

  beforeAll(async () => {
    outDir = mkdtempSync(path.join(os.tmpdir(), 'blog-bundle-'));
    await promisify(execFile)(
      process.execPath,
      [viteBin, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
      { cwd: root, env: { ...process.env, ...PLANTED, NODE_ENV: 'production' }, timeout: 120_000 },
    );
    files = filesUnder(outDir).map((file) => ({ name: path.relative(outDir, file), text: readFileSync(file, 'latin1') }));
  }, 150_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('was built, with the AI screen in it (so the search below reads the real app)', () => {
    expect(files.map((file) => file.name)).toContain('index.html');
    expect(files.some((file) => file.name.endsWith('.js'))).toBe(true);
    const all = files.map((file) => file.text).join('\n');
    expect(all).toContain('Develop Blog Ideas with AI!');
    expect(all).toContain('/api/ai/generate');
  });

  it('contains no key or server secret from the build environment', () => {
    const leaks = files.flatMap((file) =>
      Object.entries(PLANTED)
        .filter(([, secret]) => file.text.includes(secret) || file.text.includes(secret.slice(0, 18)))
        .map(([name]) => `${name} in ${file.name}`),
    );
    expect(leaks).toEqual([]);
  });

  it('contains nothing shaped like a provider key', () => {
    const keyShaped = /(?<![A-Za-z0-9])sk-(proj-)?[A-Za-z0-9_-]{20,}/;
    const found = files.flatMap((file) => {
      const match = keyShaped.exec(file.text);
      return match ? [`${match[0]} in ${file.name}`] : [];
    });
    expect(found).toEqual([]);
  });
});
