import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyClusterFile, extractTar, pgliteVersion, unpackEmptyCluster } from './empty-cluster.js';

/** One ustar entry, as PGlite's dump writes them. */
function tarEntry(name: string, body = '', type = '0'): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 'latin1');
  header.write('0000600\0', 100);
  header.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write(type, 156);
  header.write('ustar\0', 257);
  const padded = Buffer.alloc(Math.ceil(body.length / 512) * 512);
  padded.write(body);
  return Buffer.concat([header, padded]);
}

describe('the empty cluster a first start unpacks', () => {
  it('is named for the installed PGlite, and unpacks into a folder PGlite opens as a cluster', () => {
    expect(emptyClusterFile()).toContain(`pglite-${pgliteVersion()}-empty-cluster.tar.gz`);
    // The test setup wrote it beside the source.
    expect(existsSync(emptyClusterFile())).toBe(true);
    const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'empty-cluster-')), 'pglite');
    mkdirSync(dataDir);
    expect(unpackEmptyCluster(dataDir)).toBe(true);
    expect(readFileSync(path.join(dataDir, 'PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/);
    expect(readdirSync(dataDir)).toEqual(expect.arrayContaining(['base', 'global', 'pg_wal', 'postgresql.conf']));
    expect(statSync(path.join(dataDir, 'PG_VERSION')).mode & 0o777).toBe(0o600);
    expect(existsSync(`${dataDir}.unpacking`)).toBe(false);
  });

  it('answers false when this build has none, so PGlite runs initdb', () => {
    expect(unpackEmptyCluster(mkdtempSync(path.join(os.tmpdir(), 'empty-cluster-')), '/nonexistent/cluster.tar.gz')).toBe(false);
  });

  it('keeps every entry inside the folder, and refuses kinds a dump does not hold', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'empty-cluster-'));
    const end = Buffer.alloc(1024);
    expect(() => extractTar(Buffer.concat([tarEntry('/../escaped', 'x'), end]), path.join(folder, 'in'))).not.toThrow();
    // `/../escaped` is the cluster's root's parent clamped to the root: it lands inside.
    expect(existsSync(path.join(folder, 'in', 'escaped'))).toBe(true);
    expect(() => extractTar(Buffer.concat([tarEntry('link', '', '2'), end]), path.join(folder, 'in'))).toThrow(/tar type 2/);
    extractTar(Buffer.concat([tarEntry('/base', '', '5'), tarEntry('/base/1', 'data'), end]), path.join(folder, 'in'));
    expect(readFileSync(path.join(folder, 'in', 'base', '1'), 'utf8')).toBe('data');
  });
});
