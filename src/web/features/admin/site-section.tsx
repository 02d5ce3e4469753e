/** /admin's 'Site' section (issue 44): placeholder until its feature lands. */
export function SiteSection() {
  return (
    <section id="site" aria-labelledby="site-heading" className="mb-5">
      <h2 id="site-heading" className="h4">Site</h2>
    </section>
  );
}
