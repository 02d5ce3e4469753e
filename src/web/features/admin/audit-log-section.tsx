/** /admin's 'Audit log' section (issue 44): placeholder until its feature lands. */
export function AuditLogSection() {
  return (
    <section id="audit-log" aria-labelledby="audit-log-heading" className="mb-5">
      <h2 id="audit-log-heading" className="h4">Audit log</h2>
    </section>
  );
}
