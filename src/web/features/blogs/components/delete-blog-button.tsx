import { paths } from '../../../../shared/paths';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useNavigate } from 'react-router';
import type { Blog } from '../../../../shared/blog-schema';
import { messages } from '../../../../shared/messages';
import { confirmIrreversible, useDialog } from '../../../components/message-dialog';
import { errorMessage } from '../../../lib/api-client';
import { blogQueryKeys } from '../../../lib/blog-query-keys';
import { useDeleteBlog } from '../api/delete-blog';

/** Asks first, deletes, says 'Blog Deleted!' and goes home. */
export function DeleteBlogButton({ blog }: { blog: Blog }) {
  const [working, setWorking] = useState(false);
  const deleteBlog = useDeleteBlog();
  const showDialog = useDialog();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const remove = async () => {
    const confirmed = await showDialog(confirmIrreversible('Delete Blog', `Delete the blog "${blog.title}"? This cannot be undone.`, 'Delete'));
    if (!confirmed) return;
    setWorking(true);
    try {
      await deleteBlog.mutateAsync(blog.id);
    } catch (err) {
      setWorking(false);
      await showDialog({ title: messages.errorTitle, message: errorMessage(err) });
      return;
    }
    await showDialog({ title: 'Success', message: messages.blogDeleted });
    await navigate(paths.home());
    // Dropped only now: while its page was open, a refetch would have shown 'does not exist'.
    queryClient.removeQueries({ queryKey: blogQueryKeys.detail(blog.id) });
  };

  return (
    <Button variant="danger" disabled={working} onClick={() => void remove()}>
      {working ? messages.loading : 'Delete Blog'}
    </Button>
  );
}
