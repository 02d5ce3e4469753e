import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';

/**
 * scrypt on libuv's thread pool, so hashing never blocks the event loop. The parameters and the
 * `salt:key` hex format are Better Auth's own, so hashes stay interchangeable with its default.
 */
const PARAMS: ScryptOptions = { N: 16384, r: 16, p: 1, maxmem: 128 * 16384 * 16 * 2 };
const KEY_LENGTH = 64;

/**
 * Hashes that run at once. Each one keeps a core busy for a while, so a burst of sign-ins would
 * otherwise take every core from the event loop (and every pool thread from file and DNS work):
 * one core and one pool thread (of libuv's default 4) always stay free. The rest wait their turn,
 * which slows only the sign-ins themselves (see bench/sign-in.bench.ts).
 */
export const HASHING_PARALLELISM = Math.max(1, Math.min(availableParallelism() - 1, 3));

let running = 0;
const waiting: Array<() => void> = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running < HASHING_PARALLELISM) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line, or is given back.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function derive(password: string, salt: string): Promise<Buffer> {
  return inTurn(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, PARAMS, (err, key) => (err ? reject(err) : resolve(key)));
      }),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16).toString('hex');
  const key = await derive(password, salt);
  return `${salt}:${key.toString('hex')}`;
}

export async function verifyPassword({ hash, password }: { hash: string; password: string }): Promise<boolean> {
  const [salt, keyHex] = hash.split(':');
  if (!salt || !keyHex) return false;
  const expected = Buffer.from(keyHex, 'hex');
  const actual = await derive(password, salt);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
