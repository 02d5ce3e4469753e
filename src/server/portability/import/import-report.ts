import type { ImportReport } from './import.service.js';

/** The report as the CLI prints it (and the page shows it): counts, then every list that needs a reader's eye. */
export function formatImportReport(report: ImportReport): string {
  const would = report.dryRun ? 'would be ' : '';
  const lines = [
    `${report.dryRun ? 'Dry run, nothing changed. ' : ''}${report.format} export (${report.source}):`,
    `  posts: ${report.posts.imported} ${would}imported, ${report.posts.unchanged} imported before (unchanged), ${report.posts.failed} failed, ${report.posts.skipped} not posts (skipped)`,
    `  comments: ${report.comments.imported} ${would}imported, ${report.comments.unchanged} imported before, ${report.comments.skipped} left out`,
    `  accounts ${report.dryRun ? 'to create' : 'created'} (no password: they sign in by magic link or reset): ${report.accountsCreated.length}${list(report.accountsCreated)}`,
    `  images ${report.dryRun ? 'to store' : 'stored'}: ${report.images.stored}`,
  ];
  if (report.images.remote.length) lines.push(`  remote images left as links (${report.images.remote.length}):${list(report.images.remote)}`);
  if (report.images.missing.length) lines.push(`  images not in the archive, left as links (${report.images.missing.length}):${list(report.images.missing)}`);
  if (report.images.failed.length) lines.push(`  images that could not be read (${report.images.failed.length}):${list(report.images.failed)}`);
  if (report.keptPrivate.length) lines.push(`  posts ${report.dryRun ? 'to keep' : 'kept'} as drafts, as they were for members only (${report.keptPrivate.length}):${list(report.keptPrivate.map((p) => `${p.post}: ${p.reason}`))}`);
  if (report.notes.length) lines.push(`  posts ${report.dryRun ? 'to change' : 'changed'} on the way (${report.notes.length}):${list(report.notes.map((n) => `${n.post}: ${n.note}`))}`);
  if (report.repairs.length) lines.push(`  lines of the file repaired to read it, as it is not well-formed XML (${report.repairs.length}):${list(report.repairs)}`);
  if (report.problems.length) lines.push(`  posts not imported (${report.problems.length}):${list(report.problems.map((p) => `${p.post}: ${p.field}: ${p.message}`))}`);
  return lines.join('\n');
}

function list(items: readonly string[]): string {
  return items.length ? `\n    ${items.slice(0, 200).join('\n    ')}${items.length > 200 ? `\n    … and ${items.length - 200} more` : ''}` : '';
}
