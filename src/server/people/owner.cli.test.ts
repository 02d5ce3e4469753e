import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { runCli } from '../testing/server-process.js';

const CLI = path.resolve(import.meta.dirname, 'owner.cli.ts');

describe('npm run owner -- <e-mail> (issue 44)', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'owner-cli-'));
    const database = await openDatabase({ dataDir });
    await migrateToLatest(database.db);
    const now = new Date();
    await database.db
      .insertInto('user')
      .values([
        { id: 'first', name: 'a', email: 'first@example.com', emailVerified: true, createdAt: now, updatedAt: now, role: 'owner' },
        { id: 'next', name: 'b', email: 'next@example.com', emailVerified: true, createdAt: now, updatedAt: now },
      ])
      .execute();
    await database.close();
  }, 60_000);

  it('hands the site over on DATA_DIR: the previous owner becomes administrator, logged with no actor; an unknown address changes nothing', async () => {
    const unknown = await runCli(CLI, dataDir, 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No account has the e-mail address nobody@example.com');

    const result = await runCli(CLI, dataDir, 'NEXT@example.com');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('next@example.com is now the owner; first@example.com is an administrator.');

    const database = await openDatabase({ dataDir });
    try {
      const roles = await database.db.selectFrom('user').select(['id', 'role']).orderBy('id').execute();
      expect(roles).toEqual([
        { id: 'first', role: 'administrator' },
        { id: 'next', role: 'owner' },
      ]);
      const audit = await database.db.selectFrom('audit_log').select(['actor_id', 'action', 'subject']).execute();
      expect(audit).toEqual([{ actor_id: null, action: 'ownership.transfer', subject: 'next@example.com' }]);
    } finally {
      await database.close();
    }
  }, 90_000);
});
