import type { MemorySplit } from './memory-budget.js';

/**
 * V8 reads its flags, and glibc `MALLOC_ARENA_MAX` and the rest, only when a process starts: a
 * process whose budget calls for some it was not started with replaces itself (`execve`: same pid,
 * nothing kept, same arguments) with them added. The server (`main.ts`) and every command line
 * that opens the database (`cli-support.ts` `runCli`) call this first, so `npm run import` on a
 * 512 MB machine runs with the server's `--liftoff-only` and the rest, whatever started it.
 * Returns when nothing is missing (or on a Node without `execve`).
 */
export function restartWithBudget(split: Pick<MemorySplit, 'nodeFlags' | 'restartEnv'>): void {
  const missing = split.nodeFlags.filter((flag) => !process.execArgv.includes(flag));
  if ((missing.length === 0 && Object.keys(split.restartEnv).length === 0) || !process.execve) return;
  const args = [process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)];
  process.execve(process.execPath, args, { ...process.env, ...split.restartEnv });
}
