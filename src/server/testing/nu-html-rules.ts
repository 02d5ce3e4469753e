import { definePlugin, HtmlValidate, Rule, type DOMReadyEvent, type HtmlElement, type Report } from 'html-validate';

const HEADINGS = 'h1, h2, h3, h4, h5, h6';

/**
 * The Nu HTML checker's warning that a sectioning element has no heading ("Article lacks
 * heading. Consider using h2-h6 elements to add identifying headings to all articles.", and the
 * same for `<section>`), which html-validate's presets do not have: a heading counts for the
 * nearest `<article>` or `<section>` around it, as in Nu's outline.
 */
class SectioningHeading extends Rule {
  public override setup(): void {
    this.on('dom:ready', (event: DOMReadyEvent) => {
      for (const element of event.document.querySelectorAll('article, section')) {
        const own = element.querySelectorAll(HEADINGS).some((heading) => nearestSectioning(heading) === element);
        if (!own) this.report(element, `${element.tagName === 'article' ? 'Article' : 'Section'} lacks heading.`);
      }
    });
  }
}

function nearestSectioning(element: HtmlElement): HtmlElement | null {
  let parent = element.parent;
  while (parent && parent.tagName !== 'article' && parent.tagName !== 'section') parent = parent.parent;
  return parent;
}

const nuPlugin = definePlugin({ name: 'nu', rules: { 'nu/sectioning-heading': SectioningHeading } });

/**
 * A rule set equivalent to the Nu checker's for our pages: html-validate's `standard` preset (the
 * HTML standard's content models, attributes and nesting, which Nu checks as errors) plus Nu's
 * warning above, every finding an error.
 */
export const nuEquivalent = new HtmlValidate({
  plugins: [nuPlugin],
  extends: ['html-validate:standard'],
  rules: { 'nu/sectioning-heading': 'error' },
});

/** The findings on a whole page, one line each (`rule: message (line:column)`); none when it is clean. */
export async function nuFindings(html: string): Promise<string[]> {
  const report: Report = await nuEquivalent.validateString(html);
  return report.results.flatMap((result) => result.messages.map((m) => `${m.ruleId}: ${m.message} (${m.line}:${m.column})`));
}
