import { existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files.js';

/**
 * PGlite's first start in an empty folder runs `initdb` inside its WebAssembly memory, which
 * grows to about 900 MB and never shrinks. The build runs that once, on the build machine, and
 * keeps the empty cluster as a gzip tarball beside the built server; a first start unpacks it
 * into `DATA_DIR/pglite` and opens it as a later start would, then migrates as usual. The files
 * are unpacked here, in Node, not through PGlite's `loadDataDir`: that copies them through its
 * WebAssembly memory, which grows by the cluster's size (about 40 MB unpacked) and never shrinks.
 * Only `initdb`'s output is kept, not the schema: migrations added later still run at start.
 * The file's name carries the PGlite version that made it, so a PGlite upgrade without a rebuild
 * falls back to `initdb` instead of loading files it may not read (`docs/memory.md`).
 */

/** The installed PGlite's version, read from its package.json (which it does not export). */
export function pgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite' && pkg.version) return pkg.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the version of @electric-sql/pglite');
    dir = parent;
  }
}

/**
 * Where the empty cluster lives: beside this module, so `dist/server/db/` for the built server
 * (made by `npm run build`) and `src/server/db/` when running from source (made by the test setup
 * and `npm run dev`; ignored by git).
 */
export function emptyClusterFile(version = pgliteVersion()): string {
  return fileURLToPath(new URL(`./pglite-${version}-empty-cluster.tar.gz`, import.meta.url));
}

/** Runs `initdb` once (in this process: about 900 MB) and writes the tarball, replacing any older one. */
export async function writeEmptyCluster(file = emptyClusterFile()): Promise<string> {
  const pglite = await PGlite.create();
  const dump = await pglite.dumpDataDir('gzip');
  await pglite.close();
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, Buffer.from(await dump.arrayBuffer()));
  renameSync(temporary, file);
  return file;
}

/**
 * Unpacks the build's empty cluster into `dataDir` (which holds no cluster yet). False when this
 * build has none for the installed PGlite: the caller lets PGlite run `initdb`.
 */
export function unpackEmptyCluster(dataDir: string, file = emptyClusterFile()): boolean {
  if (!existsSync(file)) return false;
  // Beside it first, then renamed into place: a start cut off half-way leaves no half cluster.
  const unpacking = `${dataDir}.unpacking`;
  rmSync(unpacking, { recursive: true, force: true });
  mkdirSync(unpacking, { mode: PRIVATE_DIR_MODE });
  extractTar(gunzipSync(readFileSync(file)), unpacking);
  rmdirSync(dataDir); // empty, or this fails and nothing is replaced
  renameSync(unpacking, dataDir);
  return true;
}

/**
 * The tar PGlite's `dumpDataDir` writes: ustar headers, directories and regular files only, paths
 * from the cluster's root. Anything else, or a path leaving `dataDir`, is refused.
 */
export function extractTar(tar: Buffer, dataDir: string): void {
  const root = path.resolve(dataDir);
  const field = (header: Buffer, start: number, length: number) => header.subarray(start, start + length).toString('latin1').replace(/\0.*$/s, '');
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const name = [field(header, 345, 155), field(header, 0, 100)].filter(Boolean).join('/');
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = field(header, 156, 1) || '0';
    const target = path.resolve(root, `.${path.posix.normalize(`/${name}`)}`);
    if (target !== root && !target.startsWith(root + path.sep)) throw new Error(`empty cluster: ${name} leaves the data folder`);
    offset += 512;
    if (type === '5') mkdirSync(target, { recursive: true, mode: PRIVATE_DIR_MODE });
    else if (type === '0') {
      mkdirSync(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
      writeFileSync(target, tar.subarray(offset, offset + size), { mode: PRIVATE_FILE_MODE });
    } else throw new Error(`empty cluster: ${name} is of tar type ${type}, which a PGlite dump does not hold`);
    offset += Math.ceil(size / 512) * 512;
  }
}
