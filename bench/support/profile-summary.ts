/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): the functions with the most self time, and
 * the self time grouped by where the code lives (our source, Better Auth, Kysely, pg, zod,
 * Fastify and its serialiser, Node's own internals, garbage collection, idle).
 *
 *   node --import tsx bench/support/profile-summary.ts profiles/CPU.*.cpuprofile [top=25] [last=<seconds>] [upto=<seconds>]
 *
 * `last` keeps only the samples of the profile's last seconds (the load, not start-up); `upto`
 * also drops the final seconds, to pick one load out of several (`last=15 upto=10`).
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The first group whose pattern the frame's URL (or name, for V8's own entries) matches. */
const GROUPS: Array<[string, RegExp]> = [
  ['idle', /^\(idle\)$/],
  ['garbage collection', /^\(garbage collector\)$/],
  ['program (V8, native)', /^\((program|root)\)$/],
  ['better-auth / better-call / jose', /node_modules\/(better-auth|better-call|@better-auth|jose|@noble|defu|rou3)\//],
  ['kysely', /node_modules\/kysely/],
  ['pg (driver)', /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-)/],
  ['zod / type provider', /node_modules\/(zod|fastify-type-provider-zod)\//],
  ['fast-json-stringify', /node_modules\/fast-json-stringify\//],
  ['fastify (core, hooks, plugins)', /node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|fast-querystring|secure-json-parse|toad-cache|process-warning|abstract-logging)/],
  ['pino (logging)', /node_modules\/(pino|sonic-boom)/],
  ['lru-cache', /node_modules\/lru-cache/],
  ['react / react-router (page render)', /node_modules\/(react|react-dom|react-router|scheduler|@tanstack)\//],
  ['other node_modules', /node_modules\//],
  ['app: src/server/cache', /server\/cache\//],
  ['app: src/server/auth', /server\/auth\//],
  ['app: rest of our code', /\/(dist[^/]*|src)\//],
  ['node: internals (http, streams, crypto, zlib)', /^node:/],
];

function groupOf(frame: CallFrame): string {
  const key = frame.url || frame.functionName;
  for (const [name, pattern] of GROUPS) if (pattern.test(key)) return name;
  return frame.url ? 'other' : `native: ${frame.functionName || '(anonymous)'}`;
}

function summarise(file: string, top: number, lastSeconds: number, uptoSeconds: number) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  // Only the samples of the last seconds (the load), leaving start-up and sign-ups out.
  const end = profile.timeDeltas.reduce((a, b) => a + b, 0);
  const from = lastSeconds > 0 ? end - lastSeconds * 1e6 : 0;
  const to = end - uptoSeconds * 1e6;
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= from && at <= to) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self.entries()].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)').reduce((a, [, t]) => a + t, 0);
  const busy = total - idle;

  const functions = new Map<string, number>();
  const groups = new Map<string, number>();
  for (const [id, time] of self) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') continue;
    const where = frame.url ? `${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(dist[^/]*|src)\//, '$1/')}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    functions.set(key, (functions.get(key) ?? 0) + time);
    const group = groupOf(frame);
    groups.set(group, (groups.get(group) ?? 0) + time);
  }
  // Inclusive: a sample counts for a group when the group is anywhere on its stack.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map<string, number>();
  for (const [id, time] of self) {
    if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) seen.add(groupOf(byId.get(at)!.callFrame));
    for (const group of seen) inclusive.set(group, (inclusive.get(group) ?? 0) + time);
  }
  const pct = (t: number) => `${((100 * t) / busy).toFixed(1)} %`;
  console.log(`\n${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (${((100 * busy) / total).toFixed(0)} % of the wall time)`);
  console.log('\nSelf time by where the code lives (% of busy time):');
  for (const [group, time] of [...groups].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(time).padStart(7)}  ${group}`);
  console.log('\nOn the stack (inclusive, % of busy time):');
  for (const [group, time] of [...inclusive].sort((a, b) => b[1] - a[1]).filter(([group]) => !group.startsWith('native') && !group.startsWith('('))) console.log(`  ${pct(time).padStart(7)}  ${group}`);
  console.log(`\nTop ${top} functions by self time (% of busy time):`);
  for (const [name, time] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(time).padStart(7)}  ${name}`);
}

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => Number(args.find((arg) => arg.startsWith(`${name}=`))?.slice(name.length + 1) ?? fallback);
for (const file of args.filter((arg) => !arg.includes('='))) summarise(file, option('top', 25), option('last', 0), option('upto', 0));
