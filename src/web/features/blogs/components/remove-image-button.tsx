import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { messages } from '../../../../shared/messages';
import { confirmIrreversible, useDialog } from '../../../components/message-dialog';
import { errorMessage } from '../../../lib/api-client';
import { useRemoveBlogImage } from '../api/remove-blog-image';

/**
 * On /edit: takes the blog's cover image off at once (asking first), its files deleted. The
 * form's unsaved text is kept: only the blog's image changes.
 */
export function RemoveImageButton({ blogId }: { blogId: string }) {
  const [working, setWorking] = useState(false);
  const removeImage = useRemoveBlogImage();
  const showDialog = useDialog();

  const remove = async () => {
    const confirmed = await showDialog(confirmIrreversible('Remove image', "Remove this blog's image? This cannot be undone.", 'Remove'));
    if (!confirmed) return;
    setWorking(true);
    try {
      await removeImage.mutateAsync(blogId);
    } catch (err) {
      await showDialog({ title: messages.errorTitle, message: errorMessage(err) });
    } finally {
      setWorking(false);
    }
  };

  return (
    <Button className="mt-2" size="sm" variant="outline-danger" disabled={working} onClick={() => void remove()}>
      {working ? messages.loading : 'Remove image'}
    </Button>
  );
}
