import Button from 'react-bootstrap/Button';
import { messages } from '../../shared/messages';
import { useDialog } from './message-dialog';

/**
 * Prev, the page number, Next. Going past either end is refused with the spec's dialog;
 * the last page is known exactly from `hasMore`, also when it holds a full page.
 */
export function Pager({ page, hasMore, onPageChange }: { page: number; hasMore: boolean; onPageChange: (page: number) => void }) {
  const showDialog = useDialog();
  const refuse = (message: string) => void showDialog({ title: messages.errorTitle, message });

  return (
    <nav aria-label="Pages" className="d-flex justify-content-center align-items-center gap-3 my-4">
      <Button variant="outline-primary" onClick={() => (page <= 1 ? refuse(messages.firstPage) : onPageChange(page - 1))}>
        Prev
      </Button>
      <span className="fw-semibold" aria-current="page">
        <span className="visually-hidden">Page </span>
        {page}
      </span>
      <Button variant="outline-primary" onClick={() => (hasMore ? onPageChange(page + 1) : refuse(messages.lastPage))}>
        Next
      </Button>
    </nav>
  );
}
