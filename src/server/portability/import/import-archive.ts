import { createReadStream } from 'node:fs';
import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

/** Why an import was refused as a whole: nothing was written. */
export class ImportRefused extends Error {
  override name = 'ImportRefused';
}

/** Limits a zip must keep before any of it is read (a zip bomb is refused, not unpacked). */
export interface ArchiveLimits {
  /** The sum of the entries' uncompressed sizes. */
  maxTotalBytes: number;
  /** One entry's uncompressed size. */
  maxEntryBytes: number;
  /** Uncompressed over compressed, for entries above 1 MB uncompressed. */
  maxRatio: number;
  maxEntries: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxTotalBytes: 4 * 1024 ** 3,
  maxEntryBytes: 1024 ** 3,
  maxRatio: 200,
  maxEntries: 200_000,
};

/**
 * The files of an export, however it came: a folder, a zip or one file. Names are relative,
 * with `/`, and never leave the archive (a zip entry that would is refused when it is opened).
 */
export interface ImportArchive {
  readonly label: string;
  /** Every file's name. */
  readonly names: readonly string[];
  has(name: string): boolean;
  /** The file as a stream (read once, front to back: large exports are never held whole). */
  open(name: string): Promise<Readable>;
  read(name: string, maxBytes?: number): Promise<Buffer>;
  close(): void;
}

/** A name inside an archive made canonical; undefined when it would leave the archive. */
export function archiveName(raw: string): string | undefined {
  if (raw.includes('\0') || raw.includes('\\')) return undefined;
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) return undefined;
  const normal = path.posix.normalize(raw);
  if (normal === '..' || normal.startsWith('../') || normal.startsWith('/')) return undefined;
  return normal.replace(/^\.\//, '');
}

export async function openImportArchive(file: string, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<ImportArchive> {
  const info = await stat(file).catch(() => undefined);
  if (!info) throw new ImportRefused(`${file}: no such file or folder.`);
  if (info.isDirectory()) return openFolder(file);
  if (file.toLowerCase().endsWith('.zip')) return openZip(file, limits);
  return openSingleFile(file);
}

async function openFolder(root: string): Promise<ImportArchive> {
  const names: string[] = [];
  async function walk(dir: string, prefix: string) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      // Symbolic links are not followed: a folder's files are its own.
      const link = await lstat(full);
      if (link.isDirectory()) await walk(full, `${prefix}${entry.name}/`);
      else if (link.isFile()) names.push(`${prefix}${entry.name}`);
    }
  }
  await walk(root, '');
  names.sort();
  const set = new Set(names);
  const full = (name: string) => {
    if (!set.has(name)) throw new ImportRefused(`${name}: not in ${root}.`);
    return path.join(root, name);
  };
  return {
    label: root,
    names,
    has: (name) => set.has(name),
    open: async (name) => createReadStream(full(name)),
    read: async (name, maxBytes) => readCapped(createReadStream(full(name)), name, maxBytes),
    close: () => undefined,
  };
}

function openSingleFile(file: string): ImportArchive {
  const name = path.basename(file);
  return {
    label: file,
    names: [name],
    has: (each) => each === name,
    open: async () => createReadStream(file),
    read: async (_name, maxBytes) => (maxBytes === undefined ? readFile(file) : readCapped(createReadStream(file), name, maxBytes)),
    close: () => undefined,
  };
}

/** Reads a stream into memory, refusing more than `maxBytes`. */
export async function readCapped(stream: Readable, name: string, maxBytes = Infinity): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      stream.destroy();
      throw new ImportRefused(`${name}: larger than ${maxBytes} bytes.`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const MB = 1024 * 1024;

/**
 * A zip's central directory is read first and judged whole: every name must stay inside the
 * archive, and the sizes it declares must keep the limits, before one byte is inflated. yauzl
 * then checks while inflating that no entry grows past the size it declared.
 */
async function openZip(file: string, limits: ArchiveLimits): Promise<ImportArchive> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    // Names are checked here, with a message that says which entry; yauzl's own check stays on for streams.
    yauzl.open(file, { lazyEntries: true, autoClose: false, strictFileNames: false }, (err, opened) =>
      err ? reject(new ImportRefused(`${path.basename(file)} is not a readable zip: ${err.message}`)) : resolve(opened),
    ),
  );
  const entries = new Map<string, yauzl.Entry>();
  try {
    let total = 0;
    await new Promise<void>((resolve, reject) => {
      const fail = (message: string) => {
        reject(new ImportRefused(`${path.basename(file)}: ${message} Nothing was imported.`));
      };
      zip.on('entry', (entry: yauzl.Entry) => {
        const raw = entry.fileName;
        if (raw.endsWith('/')) return zip.readEntry();
        const name = archiveName(raw);
        if (name === undefined) return fail(`the entry ${JSON.stringify(raw)} names a path outside the archive (path traversal); refused.`);
        if (entries.size >= limits.maxEntries) return fail(`more than ${limits.maxEntries} entries; refused.`);
        const size = entry.uncompressedSize;
        if (size > limits.maxEntryBytes) return fail(`the entry ${JSON.stringify(name)} unpacks to ${size} bytes, over the limit of ${limits.maxEntryBytes}; refused as a possible zip bomb.`);
        total += size;
        if (total > limits.maxTotalBytes) return fail(`its entries unpack to more than ${limits.maxTotalBytes} bytes; refused as a possible zip bomb.`);
        if (size > MB && size / Math.max(1, entry.compressedSize) > limits.maxRatio) {
          return fail(`the entry ${JSON.stringify(name)} is compressed ${Math.round(size / Math.max(1, entry.compressedSize))} to 1, over the limit of ${limits.maxRatio} to 1; refused as a possible zip bomb.`);
        }
        if (entry.isEncrypted()) return fail(`the entry ${JSON.stringify(name)} is encrypted; refused.`);
        entries.set(name, entry);
        zip.readEntry();
      });
      zip.once('end', () => resolve());
      zip.once('error', (err: Error) => {
        // yauzl checks names too, before our handler sees the entry.
        const traversal = /^(?:invalid relative path|absolute path): (.*)$/.exec(err.message);
        if (traversal) fail(`the entry ${JSON.stringify(traversal[1])} names a path outside the archive (path traversal); refused.`);
        else fail(`not a readable zip (${err.message}).`);
      });
      zip.readEntry();
    });
  } catch (error) {
    zip.close();
    throw error;
  }
  const names = [...entries.keys()].sort();
  const open = (name: string) =>
    new Promise<Readable>((resolve, reject) => {
      const entry = entries.get(name);
      if (!entry) return reject(new ImportRefused(`${name}: not in ${path.basename(file)}.`));
      zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream)));
    });
  return {
    label: file,
    names,
    has: (name) => entries.has(name),
    open,
    read: async (name, maxBytes) => readCapped(await open(name), name, maxBytes),
    close: () => zip.close(),
  };
}
