import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

export interface DialogOptions {
  title: string;
  message: ReactNode;
  /** Label of the confirming button; 'Okay' by default. */
  okLabel?: string;
  /** With a cancel label the dialog asks a question and resolves to the answer. */
  cancelLabel?: string;
  okVariant?: string;
}

type ShowDialog = (options: DialogOptions) => Promise<boolean>;

const DialogContext = createContext<ShowDialog | null>(null);

/**
 * The one dialog of the app: an accessible modal (role dialog, labelled by its title, focus kept
 * inside and given back on close). `showDialog` resolves when it closes: true for the OK button.
 */
export function DialogProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<DialogOptions | null>(null);
  const resolver = useRef<((answer: boolean) => void) | null>(null);

  const showDialog = useCallback<ShowDialog>((options) => {
    resolver.current?.(false);
    setCurrent(options);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const close = (answer: boolean) => {
    const resolve = resolver.current;
    resolver.current = null;
    setCurrent(null);
    resolve?.(answer);
  };

  return (
    <DialogContext.Provider value={showDialog}>
      {children}
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
    </DialogContext.Provider>
  );
}

export function useDialog(): ShowDialog {
  const showDialog = useContext(DialogContext);
  if (!showDialog) throw new Error('useDialog must be used within a DialogProvider.');
  return useMemo(() => showDialog, [showDialog]);
}
