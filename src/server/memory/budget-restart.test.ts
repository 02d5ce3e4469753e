import { execFile } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp-dirs.js';
import { splitMemory } from './memory-budget.js';

const MB = 1024 * 1024;
const SERVER = path.resolve(import.meta.dirname, '..');

/**
 * Loaded by `--import` into the command's process (and, as it is one of its `execArgv`, into the
 * process it restarts as): at exit it writes down the V8 flags the process ran with, its malloc
 * settings and its peak resident memory.
 */
const RECORDER = `data:text/javascript,${encodeURIComponent(`
import { readFileSync, writeFileSync } from 'node:fs';
process.on('exit', () => {
  const hwm = Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
  writeFileSync(process.env.RECORD_TO, JSON.stringify({ pid: process.pid, execArgv: process.execArgv, mallocArenaMax: process.env.MALLOC_ARENA_MAX, hwm }));
});
`)}`;

interface Record {
  pid: number;
  execArgv: string[];
  mallocArenaMax?: string;
  hwm: number;
}

/** A command line as `npm run …` runs it (from source here), told by MEMORY_LIMIT_MB it has a 512 MB machine. */
async function runRecorded(dataDir: string, record: string, cli: string, ...args: string[]) {
  const run = promisify(execFile)(process.execPath, ['--import', RECORDER, '--import', 'tsx', path.join(SERVER, cli), ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, AUTH_SECRET: 'x'.repeat(32), MEMORY_LIMIT_MB: '512', RECORD_TO: record },
  });
  const { stdout } = await run;
  return { stdout, pid: run.child.pid, recorded: JSON.parse(readFileSync(record, 'utf8')) as Record };
}

describe('every command line that opens the database runs with the memory budget the server gives itself', () => {
  const tmp = tempDir('budget-restart-');
  afterAll(() => tmp.remove());
  // What the server's budget calls for at 512 MB with PGlite, from the one place that decides it.
  const expected = splitMemory({ bytes: 512 * MB, source: 'MEMORY_LIMIT_MB' }, { database: 'pglite' }).nodeFlags;

  it('decides the flags of a small machine in one place (memory-budget.ts)', () => {
    expect(expected).toEqual(['--liftoff-only', '--max-old-space-size=256', '--max-semi-space-size=4', '--expose-gc']);
  });

  it('npm run export, import and storage:sweep restart themselves with the flags (same pid), and write for their user only', { timeout: 300_000 }, async () => {
    const dataDir = path.join(tmp.dir, 'data');
    const out = path.join(tmp.dir, 'site.zip');
    // Over a file anyone could read, as a previous export by hand might have left.
    writeFileSync(out, 'old', { mode: 0o644 });
    const runs = [
      await runRecorded(dataDir, path.join(tmp.dir, 'export.json'), 'portability/export/export.cli.ts', '--out', out),
      await runRecorded(dataDir, path.join(tmp.dir, 'import.json'), 'portability/import/import.cli.ts', out, '--dry-run'),
      await runRecorded(dataDir, path.join(tmp.dir, 'sweep.json'), 'storage-sweep/storage-sweep.cli.ts', '--dry-run'),
    ];
    for (const { recorded, pid } of runs) {
      expect(recorded.pid).toBe(pid);
      expect(recorded.execArgv.slice(0, expected.length)).toEqual(expected);
      expect(recorded.mallocArenaMax).toBe('2');
      // The same figure the issue measured at 860 MB for these commands; the embedded server's first start is held to 400 MB the same way.
      expect(recorded.hwm).toBeLessThan(400 * MB);
    }
    expect(runs[0]!.stdout).toContain(`wrote ${out}: 0 posts`);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    console.log(`peak resident memory at 512 MB, from source with tsx: ${runs.map(({ recorded }) => `${Math.round(recorded.hwm / MB)} MB`).join(', ')}`);
  });
});
