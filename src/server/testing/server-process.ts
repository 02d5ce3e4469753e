import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, expect, inject } from 'vitest';
import './provided-context.js';

const SERVER_SOURCE = path.resolve(import.meta.dirname, '..');
const MAIN = path.join(SERVER_SOURCE, 'main.ts');
/** Processes started in a test, killed after it; and those a file shares (`lifetime: 'file'`), killed after the file. */
const children: ChildProcess[] = [];
const fileChildren: ChildProcess[] = [];

/**
 * With TEST_SERVER_BUILD (the build folder, `dist`: `npm test` sets it after its build stage),
 * processes start from the built files, as `npm start` and the README's commands run them;
 * without it, from source through tsx, so a test file runs alone without a build.
 */
const BUILD = process.env.TEST_SERVER_BUILD ? path.resolve(process.env.TEST_SERVER_BUILD, 'server') : undefined;

/** The arguments to `node` that run the server's `file` (a .ts path under src/server), from the build or from source. */
export function nodeArgsFor(file: string): string[] {
  if (!BUILD) return ['--import', 'tsx', file];
  return [path.join(BUILD, path.relative(SERVER_SOURCE, file)).replace(/\.ts$/, '.js')];
}

const killAll = (list: ChildProcess[]) => {
  for (const child of list.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
};
afterEach(() => killAll(children));
afterAll(() => killAll(fileChildren));

/**
 * A new DATA_DIR (named after `prefix`) holding a copy of the run's migrated site
 * (processes-setup.ts): the embedded database with every migration applied and no rows, as a
 * command line or a test's own `openDatabase` + `migrateToLatest` leaves it. A server or tool
 * started on it opens the cluster instead of unpacking it and migrating (about 4 s of CPU).
 * For tests that are not about a first start: those keep an empty folder (`mkdtempSync`).
 */
export function migratedDataDir(prefix: string): string {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  cpSync(inject('migratedDataDir'), dataDir, { recursive: true });
  return dataDir;
}

/** Runs a command-line script (`cli`, its path under src/server) on DATA_DIR `dataDir`, from the build or from source (`nodeArgsFor`); answers its exit code and output. */
export async function runCli(cli: string, dataDir: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...nodeArgsFor(cli), ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, AUTH_SECRET: 'x'.repeat(32) },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/**
 * Starts the server (`main.ts`, or its build) in its own process; `umask` sets the one it inherits,
 * as a service manager would. A server left running is killed after the test that started it, or,
 * with `lifetime: 'file'` (one server the file's tests share, started in a `beforeAll`), after the file.
 */
export function startServer(env: Record<string, string>, options: { umask?: number; lifetime?: 'test' | 'file' } = {}) {
  const command = options.umask === undefined ? process.execPath : '/bin/sh';
  const args =
    options.umask === undefined
      ? nodeArgsFor(MAIN)
      : ['-c', `umask ${options.umask.toString(8).padStart(3, '0')} && exec "$0" "$@"`, process.execPath, ...nodeArgsFor(MAIN)];
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  (options.lifetime === 'file' ? fileChildren : children).push(child);
  let stderr = '';
  let stdout = '';
  const waiting = new Set<() => void>();
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // The log goes to stdout: read as it comes, since a full pipe would block the server mid-request.
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const check of waiting) check();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  /**
   * Resolves once the log (stdout) has `count` lines matching `pattern`: what a test waits for
   * instead of a fixed sleep (start the server with LOG_LEVEL info for Fastify's request lines).
   */
  const logged = (pattern: RegExp, count = 1) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (stdout.split('\n').filter((line) => pattern.test(line)).length < count) return;
        waiting.delete(check);
        resolve();
      };
      waiting.add(check);
      check();
      void exited.then(() => waiting.has(check) && reject(new Error(`the server exited before logging ${count} × ${pattern}`)));
    });
  return { child, exited, stderr: () => stderr, stdout: () => stdout, logged };
}

/** Signs up `email` on the server process at `port` (started with e-mail verification off) and answers its session cookie. */
export async function signUpOverHttp(port: number, email: string): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { origin: `http://localhost:${port}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery', name: email.split('@')[0] }),
  });
  expect(response.status).toBe(200);
  return response.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Polls the health check until it answers 200. Each poll is a connection of its own, closed with
 * its answer (no keep-alive), so a test that counts the server's connections starts from none.
 */
export async function waitForHealth(port: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const answer = await healthOnce(port).catch(() => undefined); // not listening yet
    if (answer?.status === 200) {
      expect(JSON.parse(answer.body)).toEqual({ status: 'ok' });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become healthy');
}

function healthOnce(port: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/api/health', agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/**
 * Starts `main.ts` on a free port with `env` and waits until it answers its health check. Without
 * a DATA_DIR in `env` it gets a new one, named after `dataDirPrefix`. `lifetime` as `startServer`'s.
 */
export async function startHealthyServer(env: Record<string, string> = {}, dataDirPrefix = 'blog-main-', options: { lifetime?: 'test' | 'file' } = {}) {
  const port = await freePort();
  const server = startServer({ PORT: String(port), DATA_DIR: env.DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), dataDirPrefix)), ...env }, options);
  await waitForHealth(port);
  return { port, server };
}

/** Sends a POST whose body arrives in two parts, so the request is in flight between them. */
export function slowContactPost(port: number) {
  const body = JSON.stringify({ email: 'slow@example.com', message: 'sent across a shutdown' });
  const socket = net.connect(port, '127.0.0.1');
  let response = '';
  socket.on('data', (chunk) => (response += chunk.toString()));
  const done = new Promise<string>((resolve) => socket.on('close', () => resolve(response)));
  socket.write(
    `POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://localhost:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
  );
  return { finish: () => socket.write(body.slice(10)), done };
}


/**
 * One app process on the run's Postgres (`TEST_DATABASE_URL`), answering once healthy: tests of
 * several processes sharing one database start each with the same `secret`, so a session made
 * through one is valid in the others. E-mail verification is off for quick sign-ups. `lifetime`
 * as `startServer`'s: `'file'` for a process a file's tests share.
 */
export async function startPostgresAppProcess(secret: string, env: Record<string, string> = {}, options: { lifetime?: 'test' | 'file' } = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = startServer(
    {
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'blog-process-')),
      DATABASE_URL: process.env.TEST_DATABASE_URL!,
      AUTH_SECRET: secret,
      AUTH_REQUIRE_EMAIL_VERIFICATION: 'false',
      ...env,
    },
    options,
  );
  await waitForHealth(port);
  return { port, server, url };
}
