import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { moderatorsScreen, ModeratorsOnlyPage } from '../components/moderators-only-page';
import { ImportForm } from '../features/import/components/import-form';

/** /import: moderators bring a Ghost, WordPress or Markdown export into the site. */
function ImportPage() {
  return (
    <ModeratorsOnlyPage title={messages.importContent} maxWidth={760}>
      <ImportForm />
    </ModeratorsOnlyPage>
  );
}

export const importScreen = moderatorsScreen(ImportPage, messages.importContent, paths.import());
