/** /admin's 'Integrations' section (issue 44): placeholder until its feature lands. */
export function IntegrationsSection() {
  return (
    <section id="integrations" aria-labelledby="integrations-heading" className="mb-5">
      <h2 id="integrations-heading" className="h4">Integrations</h2>
    </section>
  );
}
