import { existsSync } from 'node:fs';
import { emptyClusterFile, writeEmptyCluster } from './empty-cluster.js';

/**
 * `node dist/server/db/empty-cluster.cli.js [--if-missing]`: writes the empty PGlite cluster the
 * first start unpacks (`empty-cluster.ts`). `npm run build` runs it; it needs about 900 MB once.
 */
const file = emptyClusterFile();
if (process.argv.includes('--if-missing') && existsSync(file)) {
  console.log(`empty PGlite cluster: ${file} is there`);
} else {
  const started = performance.now();
  await writeEmptyCluster(file);
  console.log(`empty PGlite cluster: wrote ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
