import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A memory cgroup of a given size, made as a child of this process's own cgroup (never moving
 * anything out of it), for running the server as a machine of that size would: cgroup v1's memory
 * controller where it is mounted (`/sys/fs/cgroup/memory`), else v2. Needs root, or a delegated
 * cgroup. `limitBytes` undefined: no limit, still counted.
 */
export interface MemoryCgroup {
  dir: string;
  version: 1 | 2;
  /** Starts `command` inside the cgroup: a shell joins it, then `exec`s the command (same pid). */
  spawn(command: string, args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string; stdio?: 'inherit' | 'ignore' | 'pipe' }): ChildProcess;
  /** The cgroup's own counters: peak and current usage (page cache included) and OOM kills. */
  stats(): { peakBytes: number; currentBytes: number; oomKills: number };
  /** Removes the cgroup once its processes have gone (the kernel may take a moment after their exit). */
  remove(): Promise<void>;
}

let made = 0;

export function createMemoryCgroup(limitBytes: number | undefined, name = 'bench-memory'): MemoryCgroup {
  const lines = readFileSync('/proc/self/cgroup', 'utf8').split('\n').filter(Boolean);
  const v1 = lines.find((line) => line.split(':')[1]?.split(',').includes('memory'));
  const v2 = lines.find((line) => line.startsWith('0::'));
  let dir: string;
  let version: 1 | 2;
  if (v1 && existsSync('/sys/fs/cgroup/memory')) {
    version = 1;
    dir = path.join('/sys/fs/cgroup/memory', v1.split(':')[2]!, `${name}-${process.pid}-${++made}`);
  } else if (v2) {
    version = 2;
    dir = path.join('/sys/fs/cgroup', v2.slice(3), `${name}-${process.pid}-${++made}`);
  } else {
    throw new Error('no memory cgroup controller found in /proc/self/cgroup');
  }
  mkdirSync(dir);
  const write = (file: string, value: string) => writeFileSync(path.join(dir, file), value);
  const read = (file: string) => readFileSync(path.join(dir, file), 'utf8');
  if (limitBytes !== undefined) {
    if (version === 1) {
      write('memory.limit_in_bytes', String(limitBytes));
      // Swap would let the process outgrow the limit; on a machine without swap this file may be absent.
      if (existsSync(path.join(dir, 'memory.memsw.limit_in_bytes'))) write('memory.memsw.limit_in_bytes', String(limitBytes));
    } else {
      write('memory.max', String(limitBytes));
      if (existsSync(path.join(dir, 'memory.swap.max'))) write('memory.swap.max', '0');
    }
  }
  return {
    dir,
    version,
    spawn(command, args, options) {
      return spawn('/bin/sh', ['-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', dir, command, ...args], {
        env: options.env,
        cwd: options.cwd,
        stdio: ['ignore', options.stdio ?? 'ignore', options.stdio ?? 'inherit'],
      });
    },
    stats() {
      if (version === 1) {
        const oom = /oom_kill (\d+)/.exec(read('memory.oom_control'))?.[1];
        return { peakBytes: Number(read('memory.max_usage_in_bytes')), currentBytes: Number(read('memory.usage_in_bytes')), oomKills: Number(oom ?? 0) };
      }
      const oom = /oom_kill (\d+)/.exec(read('memory.events'))?.[1];
      const peak = existsSync(path.join(dir, 'memory.peak')) ? Number(read('memory.peak')) : Number.NaN;
      return { peakBytes: peak, currentBytes: Number(read('memory.current')), oomKills: Number(oom ?? 0) };
    },
    async remove() {
      for (let attempt = 0; attempt < 50; attempt++) {
        try {
          rmdirSync(dir);
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      console.error(`could not remove the cgroup ${dir}: still busy`);
    },
  };
}

/** A process's own peak and current resident memory (`VmHWM`, `VmRSS`), in bytes; undefined once it is gone. */
export function processMemory(pid: number): { hwmBytes: number; rssBytes: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) * 1024;
    return { hwmBytes: kb('VmHWM'), rssBytes: kb('VmRSS') };
  } catch {
    return undefined;
  }
}
