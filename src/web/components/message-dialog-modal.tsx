import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { DialogOptions } from './message-dialog';
import '../styles/bootstrap-modal.scss';

/** The dialog itself; loaded the first time a dialog opens (see `DialogProvider`). */
export default function MessageDialogModal({ current, close }: { current: DialogOptions | null; close: (answer: boolean) => void }) {
  return (
    <Modal show={current !== null} onHide={() => close(false)} centered aria-labelledby="message-dialog-title" restoreFocus>
      <Modal.Header closeButton>
        <Modal.Title id="message-dialog-title" as="h2" className="h5">
          {current?.title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{current?.message}</Modal.Body>
      <Modal.Footer>
        {current?.cancelLabel && (
          <Button variant="secondary" onClick={() => close(false)}>
            {current.cancelLabel}
          </Button>
        )}
        <Button variant={current?.okVariant ?? 'primary'} onClick={() => close(true)} autoFocus>
          {current?.okLabel ?? 'Okay'}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
