import type { ImportReportBody } from '../../../../shared/import-schema';

const FORMATS: Record<ImportReportBody['format'], string> = { ghost: 'Ghost export', wordpress: 'WordPress export', markdown: 'Markdown files' };

function Counts({ label, counts }: { label: string; counts: Record<string, number> }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className="mb-2">
        {Object.entries(counts)
          .map(([what, n]) => `${n} ${what}`)
          .join(', ')}
      </dd>
    </div>
  );
}

/** What an import did (or, dry, would do), as the command line reports it. */
export function ImportReport({ report }: { report: ImportReportBody }) {
  const posts = report.dryRun ? { 'would import': report.posts.imported, unchanged: report.posts.unchanged, 'would fail': report.posts.failed, skipped: report.posts.skipped } : report.posts;
  const comments = report.dryRun ? { 'would import': report.comments.imported, unchanged: report.comments.unchanged, skipped: report.comments.skipped } : report.comments;
  return (
    <section aria-labelledby="import-report-heading" className="mt-4">
      <h2 id="import-report-heading" className="h5">
        {report.dryRun ? 'What the import would do (nothing was written)' : 'Import report'}
      </h2>
      <p>
        {FORMATS[report.format]} from <code>{report.source}</code>
      </p>
      <dl>
        <Counts label="Posts" counts={posts} />
        <Counts label="Comments" counts={comments} />
        <div>
          <dt>{report.dryRun ? 'Accounts it would make' : 'Accounts made'}</dt>
          <dd className="mb-2">{report.accountsCreated.length === 0 ? 'none' : report.accountsCreated.join(', ')}</dd>
        </div>
        <Counts label="Images" counts={{ stored: report.images.stored, 'remote (left as links)': report.images.remote.length, missing: report.images.missing.length, failed: report.images.failed.length }} />
      </dl>
      {report.problems.length > 0 && (
        <>
          <h3 className="h6">Posts not imported</h3>
          <ul>
            {report.problems.map((problem) => (
              <li key={`${problem.post}:${problem.field}`}>
                {problem.post}: <code>{problem.field}</code>: {problem.message}
              </li>
            ))}
          </ul>
        </>
      )}
      {report.keptPrivate.length > 0 && (
        <>
          <h3 className="h6">{report.dryRun ? 'Posts it would keep as drafts' : 'Posts kept as drafts'}</h3>
          <p>They were for members only; this site has no members. Their authors may publish them.</p>
          <ul>
            {report.keptPrivate.map((post) => (
              <li key={post.post}>
                {post.post}: {post.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {report.notes.length > 0 && (
        <>
          <h3 className="h6">{report.dryRun ? 'Posts it would change on the way' : 'Posts changed on the way'}</h3>
          <ul>
            {report.notes.map((note) => (
              <li key={`${note.post}:${note.note}`}>
                {note.post}: {note.note}
              </li>
            ))}
          </ul>
        </>
      )}
      {report.repairs.length > 0 && (
        <>
          <h3 className="h6">Lines of the file repaired to read it</h3>
          <p>The file is not well-formed XML; these lines were read leniently.</p>
          <ul className="text-break">
            {report.repairs.map((repair) => (
              <li key={repair}>{repair}</li>
            ))}
          </ul>
        </>
      )}
      {report.images.remote.length > 0 && (
        <details>
          <summary>Remote images, not fetched ({new Set(report.images.remote).size})</summary>
          <ul className="text-break">
            {[...new Set(report.images.remote)].map((url) => (
              <li key={url}>{url}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
