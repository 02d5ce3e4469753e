import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/database.js';
import { emptyClusterFile } from '../db/empty-cluster.js';
import { migrateToLatest } from '../db/migrate.js';
import { adminQuery, withDatabase } from './postgres-admin.js';
import './provided-context.js';

/**
 * Migrating a database takes seconds, so it happens once per run: a PGlite dump that every
 * test loads, and (with TEST_DATABASE_URL) a Postgres template database that each test copies.
 * Vitest calls this once per project; the PGlite dump and Vite's warm-up are made by the first
 * call and shared by the others, and the last project's teardown removes the dump.
 */
export default async function setup(project: TestProject) {
  projectsSetUp++;
  const { folder, templatePath } = await (shared ??= prepareShared());
  project.provide('pgliteTemplatePath', templatePath);

  const postgresUrl = process.env.TEST_DATABASE_URL;
  let templateDb = '';
  if (postgresUrl && project.name.startsWith('postgres')) {
    templateDb = `blog_test_template_${process.pid}_${project.name.replace(/\W/g, '_')}`;
    await adminQuery(postgresUrl, `drop database if exists ${templateDb}`);
    await adminQuery(postgresUrl, `create database ${templateDb}`);
    const migrated = await openDatabase({ databaseUrl: withDatabase(postgresUrl, templateDb), dataDir: folder });
    await migrateToLatest(migrated.db);
    await migrated.close();
  }
  project.provide('postgresTemplateDb', templateDb);

  return async () => {
    if (postgresUrl && templateDb) await adminQuery(postgresUrl, `drop database if exists ${templateDb} with (force)`);
    if (--projectsSetUp === 0) rmSync(folder, { recursive: true, force: true });
  };
}

let shared: Promise<{ folder: string; templatePath: string }> | undefined;
let projectsSetUp = 0;

/** What every project shares: Vite's pre-bundled dependencies, and the migrated PGlite's dump. */
async function prepareShared() {
  await warmViteDependencies();
  const folder = mkdtempSync(path.join(os.tmpdir(), 'blog-test-template-'));
  const templatePath = path.join(folder, 'pglite.tar.gz');
  // Before migrating, the cluster is what `npm run build` keeps for a first start; servers the
  // tests start from source (`main.ts`) unpack it from beside the source. Made by an earlier run
  // (in `npm test`, the Vitest stage's, before the process tests' and Node 26's), it is loaded
  // instead of running `initdb` again: about 1.2 s of CPU against 4–6 s.
  const emptyCluster = emptyClusterFile();
  const made = existsSync(emptyCluster);
  const template = await openDatabase({
    dataDir: folder,
    inMemory: true,
    ...(made ? { loadDataDir: new Blob([readFileSync(emptyCluster)], { type: 'application/x-gzip' }) } : {}),
  });
  if (!made) {
    const temporary = `${emptyCluster}.${process.pid}.tmp`;
    writeFileSync(temporary, Buffer.from(await (await template.dump!()).arrayBuffer()));
    renameSync(temporary, emptyCluster);
  }
  await migrateToLatest(template.db);
  writeFileSync(templatePath, Buffer.from(await (await template.dump!()).arrayBuffer()));
  await template.close();
  return { folder, templatePath };
}

const OUTDATED_PRE_BUNDLE = /new version of the pre-bundle/;

/**
 * Vite pre-bundles the server-render entry's dependencies into `.vite-cache` the first time
 * a dev server loads it. Test files that render pages through Vite run in parallel workers: on a
 * fresh clone each would bundle at once and invalidate the others' bundles mid-request ("There is
 * a new version of the pre-bundle"). Done once here, before any worker starts, every later
 * server finds the bundles made and matching its config.
 */
async function warmViteDependencies() {
  const { createServer } = await import('vite');
  const vite = await createServer({
    configFile: path.resolve(import.meta.dirname, '../../../vite.config.ts'),
    server: { middlewareMode: true, hmr: false, watch: null },
    appType: 'custom',
    logLevel: 'error',
  });
  try {
    // A dependency discovered while loading re-bundles once; the load after that finds it done.
    for (let attempt = 1; ; attempt++) {
      try {
        await vite.ssrLoadModule('/entry-server.tsx');
        break;
      } catch (error) {
        if (attempt >= 3 || !OUTDATED_PRE_BUNDLE.test(String((error as Error)?.message ?? error))) throw error;
      }
    }
  } finally {
    await vite.close();
  }
}

