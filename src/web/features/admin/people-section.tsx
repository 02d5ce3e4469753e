/** /admin's 'People' section (issue 44): placeholder until its feature lands. */
export function PeopleSection() {
  return (
    <section id="people" aria-labelledby="people-heading" className="mb-5">
      <h2 id="people-heading" className="h4">People</h2>
    </section>
  );
}
