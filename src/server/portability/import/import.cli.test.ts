import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../../testing/temp-dirs.js';
import { migratedDataDir, runCli } from '../../testing/server-process.js';

const CLI = path.resolve(import.meta.dirname, 'import.cli.ts');
const PUBLIC = path.resolve(import.meta.dirname, '../../../../tests/fixtures/public');

/** `npm run import` as its built file runs, from source, on a DATA_DIR of its own (PGlite). */
const importCli = (dataDir: string, ...args: string[]) => runCli(CLI, dataDir, ...args);

describe('npm run import', () => {
  const tmp = tempDir('import-cli-');
  afterAll(() => tmp.remove());

  it('dry run, import, import again; a refused file exits 1 with one line', { timeout: 180_000 }, async () => {
    const dataDir = migratedDataDir('import-cli-data-');
    const json = path.join(FIXTURES, 'ghost-site/ghost-export.json');
    const dry = await importCli(dataDir, json, '--dry-run');
    expect(dry.stdout).toContain('Dry run, nothing changed. ghost export');
    expect(dry.stdout).toContain('posts: 5 would be imported, 0 imported before (unchanged), 1 failed, 1 not posts (skipped)');
    expect(dry.code).toBe(1);
    const first = await importCli(dataDir, json);
    expect(first.stdout).toMatch(/^imported\t"A walk round the harbour" \(published\) by grace@harbour-notes\.example$/m);
    expect(first.stdout).toContain('"A post with a broken date" (id 6650a1f2c3b4a80001a1b006): published_at: "last Tuesday" is not a date');
    const second = await importCli(dataDir, json);
    expect(second.stdout).toContain('posts: 0 imported, 5 imported before (unchanged), 1 failed');
    const refused = await importCli(dataDir, path.join(FIXTURES, 'README.md'), '--owner', 'not-an-address');
    expect(refused).toMatchObject({ code: 1, stderr: '--owner: "not-an-address" is not an e-mail address\n' });
  });

  it('a mistyped flag stops it at once, with the reason, before anything is made (not even DATA_DIR)', { timeout: 60_000 }, async () => {
    const dataDir = path.join(tmp.dir, 'never-made');
    const mistake = await importCli(dataDir, path.join(PUBLIC, 'tryghost-migrate-wp-sample.xml'), '--dryrun');
    expect(mistake).toMatchObject({ code: 1, stdout: '' });
    expect(mistake.stderr).toMatch(/^Unknown option '--dryrun'/);
    expect(existsSync(dataDir)).toBe(false);
  });

  // Real exports from Ghost's migration tools (tests/fixtures/README.md): a Lexical-only post
  // with no author, a WXR with bare "&"; and a page or a custom post type is skipped, not failed.
  it('exits 0 when every post was imported or skipped as the report says', { timeout: 180_000 }, async () => {
    const dataDir = migratedDataDir('import-cli-real-');
    const ghost = await importCli(dataDir, path.join(PUBLIC, 'tryghost-migrate-ghost-lexical.json'), '--dry-run');
    expect(ghost.stdout).toContain('posts: 3 would be imported, 0 imported before (unchanged), 0 failed, 0 not posts (skipped)');
    expect(ghost.stdout).toContain(`"Post 3 - Lexical": given to alice@example.com (the export's first user; it names no Owner or Administrator): the export names no author for it`);
    expect(ghost.code).toBe(0);
    const wordpress = await importCli(dataDir, path.join(PUBLIC, 'tryghost-migrate-wp-sample.xml'));
    expect(wordpress.stdout).toContain('posts: 3 imported, 0 imported before (unchanged), 0 failed, 3 not posts (skipped)');
    expect(wordpress.stdout).toContain('lines of the file repaired to read it, as it is not well-formed XML (2):\n    line 109: a bare "&" escaped (5 times)\n    line 110: a bare "&" escaped (5 times)');
    expect(wordpress.code).toBe(0);
  });
});
