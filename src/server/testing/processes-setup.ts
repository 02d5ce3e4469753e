import { existsSync } from 'node:fs';
import { emptyClusterFile, writeEmptyCluster } from '../db/empty-cluster.js';

/**
 * The `processes` project's global setup. Its files start servers and tools of their own and
 * reach no test app, so they need neither the migrated PGlite template nor Vite's pre-bundled
 * dependencies (global-setup.ts: about 13 s of CPU). What they do need is the empty cluster beside
 * the source: the databases they open in the test process (`openDatabase({ dataDir })`), and the
 * servers started from source, unpack it instead of running `initdb` each time.
 */
export default async function setup() {
  if (!existsSync(emptyClusterFile())) await writeEmptyCluster();
}
