import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * `pg_dump` or `pg_restore`: from PATH, else the newest of Debian's `/usr/lib/postgresql/<n>/bin`
 * (pg_dump refuses a server newer than itself, so the newest is the one to try). Undefined when
 * neither has it.
 */
export async function findPgTool(name: 'pg_dump' | 'pg_restore'): Promise<string | undefined> {
  const candidates: string[] = [];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(path.join(dir, name));
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const version of versions) candidates.push(path.join(debian, version, 'bin', name));
  }
  for (const candidate of candidates) {
    if (!existsSync(candidate)) continue;
    try {
      await run(candidate, ['--version']);
      return candidate;
    } catch {
      // Not runnable (a broken wrapper): try the next.
    }
  }
  return undefined;
}

export async function runPgTool(tool: string, args: string[]): Promise<void> {
  try {
    await run(tool, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const failed = error as { stderr?: string; message: string };
    throw new Error(`${path.basename(tool)} failed: ${(failed.stderr || failed.message).trim().split('\n').slice(0, 5).join(' / ')}`, { cause: error });
  }
}
