import { Link } from 'react-router';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { moderatorsScreen, ModeratorsOnlyPage } from '../components/moderators-only-page';
import { MailQueue } from '../features/moderation/components/mail-queue';
import { ModerationPanel } from '../features/moderation/components/moderation-panel';

/** /moderation: the reports, hidden items, suspended accounts, the log and the mail queue. */
function ModerationPage() {
  return (
    <ModeratorsOnlyPage title={messages.moderation} maxWidth={960}>
      <p>
        <Link to={paths.import()}>Import posts from Ghost, WordPress or Markdown files</Link>
      </p>
      <ModerationPanel />
      <MailQueue />
    </ModeratorsOnlyPage>
  );
}

export const moderationScreen = moderatorsScreen(ModerationPage, messages.moderation, paths.moderation());
