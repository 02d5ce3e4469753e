import { paths } from '../../shared/paths';
import type { Screen } from '../lib/screen';
import { STATIC_PAGE } from '../../shared/cache-tags';
import { siteTextsQueryOptions, useSiteTexts } from '../features/site-pages/api/site-pages';
import { queryLoader } from '../lib/load-query';
import { authorTermsSentence } from '../../shared/author-name';
import { useSite } from '../lib/site-context';

function AboutPage() {
  const site = useSite();
  return (
    <article className="mx-auto" style={{ maxWidth: 760 }}>
      <h1>About us</h1>
      <p>
        This site began in 2024 as a university computer-science project. Its question was how websites
        built with JavaScript frameworks behave, and how fast they can be made. It grew into a small place
        where anyone can read what others write, and where members share their own posts.
      </p>

      <h2 className="h4 mt-4">What the site offers</h2>
      <ul>
        <li>Reading every blog, five to a page, best rated first, without an account.</li>
        <li>Searching blogs by the words of their titles.</li>
        <li>Writing, editing and deleting your own blogs, with a picture if you like.</li>
        <li>Voting blogs up or down, so the best rise to the top.</li>
        <li>An AI Blog Generator that drafts a random blog for you to start from.</li>
        <li>A support page with answers to common questions and a way to write to us.</li>
      </ul>

      <h2 className="h4 mt-4">Terms of service</h2>
      <ul>
        <li>{authorTermsSentence(site.showAuthorsBy ?? 'email')}</li>
        <li>You must be at least 13 years old to use the site. If you are under 18, you may use it only with the permission of a parent or guardian.</li>
        <li>We may remove content or suspend accounts at our discretion, for example for content that is unlawful or hurts others.</li>
      </ul>

      <h2 className="h4 mt-4">Privacy</h2>
      <p>
        We use what you give us, your e-mail address, your posts, your votes and any message you send, only to
        run the site and make it better. We do not sell it. Deleting your account permanently removes your posts,
        votes and pictures from the site.
      </p>
      <p>
        The site counts its own page views, with no cookie, script or third party: it keeps the day, the blog read,
        the name of the site a link came from and the link&apos;s campaign tags, and counts visitors once a day by a
        code made from your address and browser with a key that is thrown away each night, so your address, your
        browser and your way through the site are never stored, and visits that send Do Not Track or Global Privacy
        Control, and those of bots, are not counted.
      </p>
    </article>
  );
}

/** The owner's whole text once saved in /admin's 'Pages' (issue 58); until then the spec's, above, as it always was. */
function AboutScreen() {
  const { data } = useSiteTexts();
  if (!data?.about) return <AboutPage />;
  return (
    <article className="mx-auto" style={{ maxWidth: 760 }}>
      <h1>About us</h1>
      <div className="blog-body" dangerouslySetInnerHTML={{ __html: data.about.html }} />
    </article>
  );
}

export const aboutScreen: Screen = {
  scriptOnFirstTouch: true,
  forTheViewer: true,
  cache: STATIC_PAGE,
  Component: AboutScreen,
  loader: queryLoader(() => siteTextsQueryOptions()),
  meta: () => ({ title: 'About', description: 'What this site is, who writes here, and how it works.', path: paths.about() }),
};
