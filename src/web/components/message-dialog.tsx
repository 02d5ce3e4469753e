import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { messages } from '../../shared/messages';
import { errorMessage } from '../lib/api-client';

// Most pages never open a dialog: the modal's code loads with the first one.
const MessageDialogModal = lazy(() => import('./message-dialog-modal'));

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

/** A question before something that cannot be undone: the confirming button red, 'Cancel' beside it. */
export function confirmIrreversible(title: string, message: ReactNode, okLabel: string): DialogOptions {
  return { title, message, okLabel, okVariant: 'danger', cancelLabel: 'Cancel' };
}

const DialogContext = createContext<ShowDialog | null>(null);

/**
 * The one dialog of the app: an accessible modal (role dialog, labelled by its title, focus kept
 * inside and given back on close). `showDialog` resolves when it closes: true for the OK button.
 */
export function DialogProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<DialogOptions | null>(null);
  const [opened, setOpened] = useState(false);
  const resolver = useRef<((answer: boolean) => void) | null>(null);

  const showDialog = useCallback<ShowDialog>((options) => {
    resolver.current?.(false);
    setOpened(true);
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
      {opened && (
        <Suspense fallback={null}>
          <MessageDialogModal current={current} close={close} />
        </Suspense>
      )}
    </DialogContext.Provider>
  );
}

export function useDialog(): ShowDialog {
  const showDialog = useContext(DialogContext);
  if (!showDialog) throw new Error('useDialog must be used within a DialogProvider.');
  return useMemo(() => showDialog, [showDialog]);
}

/**
 * Runs an action of a list's row (regenerate, send a test, delete) and tells its failure in the
 * error dialog: the answer's own message, under the spec's error title.
 */
export function useRunOrTell(): (work: () => Promise<unknown>) => Promise<void> {
  const showDialog = useDialog();
  return useCallback(
    async (work) => {
      try {
        await work();
      } catch (err) {
        await showDialog({ title: messages.errorTitle, message: errorMessage(err) });
      }
    },
    [showDialog],
  );
}
