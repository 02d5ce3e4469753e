import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { allImageKeys } from '../images/stored-image.js';
import { isValidImageKey } from '../storage/image-key.js';
import { IMAGE_KEY_PREFIX, type ImageStorage, type StoredObject } from '../storage/storage.js';
import { selectNamedImageKeys } from './storage-sweep.repository.js';

export interface StorageSweepCounts {
  /** Objects found under the images' prefix. */
  listed: number;
  /** Objects left in place: named by a row, or younger than the grace period. */
  kept: number;
  /** Of those kept, the ones no row names yet that are inside the grace period. */
  keptInGrace: number;
  /** Objects no row names, older than the grace period: removed (in a dry run, that would be). */
  removed: number;
  bytesFreed: number;
  /** Objects that could not be removed (logged; the next sweep tries again). */
  failed: number;
}

export interface StorageSweepOptions {
  /** Objects modified more recently than this are kept, named or not: an upload in flight writes its files before its row. */
  graceMs: number;
  /** Lists what would be removed and removes nothing. */
  dryRun?: boolean;
  now?: () => Date;
  pageSize?: number;
  signal?: AbortSignal;
  /** Each object removed (or, in a dry run, to be removed), as it goes. */
  onRemoved?: (object: StoredObject) => void;
  /** Tests: runs after a page is listed and before the database is asked about it. */
  afterListing?: (page: readonly StoredObject[]) => Promise<void>;
}

export interface StorageSweepLog {
  error(details: object, message: string): void;
}

const REMOVALS_AT_ONCE = 8;

/**
 * Removes every stored object under `blogs/` that no row names and that is older than the grace
 * period: cover images and their variants whose row was never committed (a crash mid-upload), an
 * editor upload whose row is gone, a half-written `.tmp` file. A page of the listing at a time:
 * listed first, then the database is asked which of its keys a row names, then the rest goes.
 * That order is what keeps a row committed during the sweep safe: its file is either listed
 * before the row exists and is young (inside the grace period), or the row is already there when
 * the database is asked.
 */
export async function sweepStorage(
  deps: { db: Kysely<Database>; storage: ImageStorage; log: StorageSweepLog },
  options: StorageSweepOptions,
): Promise<StorageSweepCounts> {
  const counts: StorageSweepCounts = { listed: 0, kept: 0, keptInGrace: 0, removed: 0, bytesFreed: 0, failed: 0 };
  for await (const page of deps.storage.list(IMAGE_KEY_PREFIX, { pageSize: options.pageSize })) {
    if (options.signal?.aborted) break;
    counts.listed += page.length;
    const oldest = (options.now?.() ?? new Date()).getTime() - options.graceMs;
    const old = page.filter((object) => object.modifiedAt.getTime() <= oldest);
    counts.keptInGrace += page.length - old.length;
    await options.afterListing?.(page);
    const named = await namedObjects(deps.db, old);
    const orphans = old.filter((object) => !named.has(object.key));
    counts.kept += page.length - orphans.length;
    for (let start = 0; start < orphans.length; start += REMOVALS_AT_ONCE) {
      await Promise.all(
        orphans.slice(start, start + REMOVALS_AT_ONCE).map(async (object) => {
          try {
            if (!options.dryRun) await deps.storage.removeListed(object.key);
            counts.removed++;
            counts.bytesFreed += object.size;
            options.onRemoved?.(object);
          } catch (err) {
            counts.failed++;
            deps.log.error({ err, key: object.key }, 'storage sweep: could not remove a file no row names');
          }
        }),
      );
    }
  }
  return counts;
}

/** The keys among `objects` that a row names, as the image itself or as one of its variants. */
async function namedObjects(db: Kysely<Database>, objects: readonly StoredObject[]): Promise<Set<string>> {
  const ownersOf = new Map(objects.map((object) => [object.key, possibleOwners(object.key)]));
  const owners = await selectNamedImageKeys(db, [...new Set([...ownersOf.values()].flat())]);
  const named = new Set<string>();
  for (const [key, candidates] of ownersOf) {
    if (candidates.some((owner) => owners.has(owner) && allImageKeys(owner).includes(key))) named.add(key);
  }
  return named;
}

const VARIANT_SUFFIX = /-(?:w\d{1,5}|og)\.webp$/;

/**
 * The image keys whose row would name `key`: itself, and the image it is a variant of. A
 * temporary file (`.x.webp.1a2b.tmp`) has none: no row ever names one.
 */
function possibleOwners(key: string): string[] {
  const owners = isValidImageKey(key) ? [key] : [];
  if (VARIANT_SUFFIX.test(key)) {
    const original = key.replace(VARIANT_SUFFIX, '.webp');
    if (isValidImageKey(original)) owners.push(original);
  }
  return owners;
}
