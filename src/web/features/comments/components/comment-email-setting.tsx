import Form from 'react-bootstrap/Form';
import { errorMessage } from '../../../lib/api-client';
import { useCommentEmailSetting, useSaveCommentEmailSetting } from '../api/comment-email-setting';

export const COMMENT_EMAIL_LABEL = 'E-mail me about comments and replies';

/** The Settings checkbox: on by default; saved as soon as it changes. */
export function CommentEmailSetting({ userId }: { userId: string }) {
  const setting = useCommentEmailSetting(userId);
  const save = useSaveCommentEmailSetting(userId);
  const checked = save.isPending ? save.variables.enabled : (setting.data?.enabled ?? true);
  return (
    <>
      <Form.Check
        type="checkbox"
        id="comment-emails"
        label={COMMENT_EMAIL_LABEL}
        checked={checked}
        disabled={setting.isPending || save.isPending}
        onChange={(event) => save.mutate({ enabled: event.target.checked })}
      />
      <Form.Text>A mail when someone comments on your blog or replies to your comment, at most one per blog an hour.</Form.Text>
      {(setting.isError || save.isError) && (
        <p className="text-danger mt-2 mb-0" role="alert">
          {errorMessage(setting.error ?? save.error)}
        </p>
      )}
    </>
  );
}
