import Bowser from 'bowser';
import type { Kysely } from 'kysely';
import { isIP } from 'node:net';
import type { AccountSession } from '../../shared/account-schema.js';
import type { Database } from '../db/schema.js';
import { notFound } from '../errors.js';
import type { SessionInfo } from './session.js';
import { deleteAccountSession, deleteOtherSessions, selectAccountSessions } from './session.repository.js';

/**
 * The account's sessions as Settings lists them (issue 45): the browser and system read from the
 * user agent (bowser), the address with its last part dropped, when it began and was last used.
 * A token never leaves the server; a session is named by its id.
 */
export async function listAccountSessions(db: Kysely<Database>, current: SessionInfo): Promise<AccountSession[]> {
  const rows = await selectAccountSessions(db, current.user.id);
  return rows.map((row) => ({
    id: row.id,
    device: describeUserAgent(row.userAgent),
    address: maskAddress(row.ipAddress),
    signedInAt: new Date(row.createdAt).toISOString(),
    lastSeenAt: new Date(row.last_seen_at ?? row.createdAt).toISOString(),
    current: row.id === current.session.id,
  }));
}

const noSuchSession = () => notFound('This session has already ended.');

/** Ends one of the account's own sessions (this one too: the browser is then signed out). */
export async function endAccountSession(db: Kysely<Database>, current: SessionInfo, id: string): Promise<void> {
  // Better Auth's ids are random letters and digits; anything else names no session.
  if (!SESSION_ID.test(id) || !(await deleteAccountSession(db, current.user.id, id))) throw noSuchSession();
}

const SESSION_ID = /^[A-Za-z0-9_-]{8,128}$/;

/** Ends every other session of the account; answers how many. */
export function endOtherSessions(db: Kysely<Database>, current: SessionInfo): Promise<number> {
  return deleteOtherSessions(db, current.user.id, current.session.id);
}

/** "Firefox on Linux": the browser and system without versions (an update is not a new browser). */
export function browserOf(userAgent: string | null): string {
  if (!userAgent) return 'unknown';
  const parsed = Bowser.parse(userAgent);
  return `${parsed.browser.name ?? 'unknown'} on ${parsed.os.name ?? 'unknown'}`;
}

/** "Firefox 133 on Ubuntu": the browser's name and major version, and the system's name. */
export function describeUserAgent(userAgent: string | null): string {
  if (!userAgent) return 'An unknown browser';
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ') || 'An unknown browser';
  const system = parsed.os.name;
  return system ? `${browser} on ${system}` : browser;
}

/** The address without its last part: "203.0.113.*" (IPv4), the first four groups (IPv6); null when unknown. */
export function maskAddress(address: string | null): string | null {
  if (!address) return null;
  const mapped = address.toLowerCase().startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  if (isIP(mapped) === 4) return `${mapped.split('.').slice(0, 3).join('.')}.*`;
  if (isIP(mapped) === 6) return `${expandIpv6(mapped).slice(0, 4).join(':')}::*`;
  return null;
}

function expandIpv6(address: string): string[] {
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const fill = address.includes('::') ? Array(8 - left.length - right.length).fill('0') : [];
  return [...left, ...fill, ...right].map((group) => group.replace(/^0+(?=.)/, ''));
}
