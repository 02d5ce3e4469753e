import Accordion from 'react-bootstrap/Accordion';
import { ContactForm } from '../features/contact/components/contact-form';
import { paths } from '../../shared/paths';
import type { Screen } from '../lib/screen';
import { STATIC_PAGE } from '../../shared/cache-tags';

const FAQ = [
  {
    question: 'How do I get started?',
    answer:
      'Choose Login or Register in the More menu and sign up with your e-mail address and a password (you can also sign in with a link or a code sent by e-mail). Then pick Create a Blog to write your first post.',
  },
  {
    question: 'Can I make money with my blogs?',
    answer:
      'Not yet. We are looking at ways for writers to earn from their work, such as tips from readers and sponsored posts, and will announce them here when they are ready.',
  },
  {
    question: 'Is the site free?',
    answer: 'Yes. Reading, writing, voting and the AI Blog Generator are all free.',
  },
  {
    question: 'How is my information used?',
    answer:
      'Only to provide the site and make it better: your e-mail address signs you in and is shown as the author of your posts. We do not sell your data.',
  },
  {
    question: 'How do I delete my data?',
    answer:
      'Open Settings and choose Delete Account. This permanently removes your account together with all of your posts, votes and pictures.',
  },
];

function SupportPage() {
  return (
    <div className="mx-auto" style={{ maxWidth: 760 }}>
      <h1>Support</h1>
      <h2 className="h4 mt-4">Frequently asked questions</h2>
      <Accordion className="mb-5">
        {FAQ.map((entry, index) => (
          <Accordion.Item eventKey={String(index)} key={entry.question}>
            <Accordion.Header as="h3">{entry.question}</Accordion.Header>
            <Accordion.Body>{entry.answer}</Accordion.Body>
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
  meta: () => ({ title: 'Support', description: 'Answers to common questions, and a form to contact us.', path: paths.support() }),
};
