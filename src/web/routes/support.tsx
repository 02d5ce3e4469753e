import Accordion from 'react-bootstrap/Accordion';
import { ContactForm } from '../features/contact/components/contact-form';
import { paths } from '../../shared/paths';
import type { Screen } from '../lib/screen';
import { STATIC_PAGE } from '../../shared/cache-tags';
import { DEFAULT_FAQ } from '../../shared/site-pages-schema';
import { siteTextsQueryOptions, useSiteTexts } from '../features/site-pages/api/site-pages';
import { queryLoader } from '../lib/load-query';
import { specTextFollowing } from '../../shared/author-name';
import { useSite } from '../lib/site-context';

function SupportPage() {
  const { data } = useSiteTexts();
  const site = useSite();
  return (
    <div className="mx-auto" style={{ maxWidth: 760 }}>
      <h1>Support</h1>
      <h2 className="h4 mt-4">Frequently asked questions</h2>
      <Accordion className="mb-5">
        {/* The owner's questions once saved in /admin's 'Pages' (issue 58), their answers in Markdown; until then the spec's. */}
        {data?.faq
          ? data.faq.map((entry, index) => (
              <Accordion.Item eventKey={String(index)} key={index}>
                <Accordion.Header as="h3">{entry.question}</Accordion.Header>
                <Accordion.Body>
                  <div className="blog-body" dangerouslySetInnerHTML={{ __html: entry.answerHtml }} />
                </Accordion.Body>
              </Accordion.Item>
            ))
          : DEFAULT_FAQ.map((entry, index) => (
              <Accordion.Item eventKey={String(index)} key={entry.question}>
                <Accordion.Header as="h3">{entry.question}</Accordion.Header>
                <Accordion.Body>{specTextFollowing(site.showAuthorsBy ?? 'email', entry.answer)}</Accordion.Body>
              </Accordion.Item>
            ))}
      </Accordion>
      <h2 className="h4" id="contact-heading">
        Contact us
      </h2>
      <ContactForm />
    </div>
  );
}

export const supportScreen: Screen = {
  forTheViewer: true,
  cache: STATIC_PAGE,
  Component: SupportPage,
  loader: queryLoader(() => siteTextsQueryOptions()),
  meta: () => ({ title: 'Support', description: 'Answers to common questions, and a form to contact us.', path: paths.support() }),
};
