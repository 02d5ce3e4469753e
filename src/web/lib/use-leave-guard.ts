import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { useDialog } from '../components/message-dialog';

export interface LeaveGuardTexts {
  title: string;
  message: string;
  leave: string;
  stay: string;
}

/**
 * Asks before leaving a page while `isDirty()`: in-app navigation through React Router's
 * `useBlocker` (the app's dialog: Stay or Leave), closing or reloading the tab through the
 * browser's own `beforeunload` prompt. `isDirty` is read at the moment of leaving, so a save
 * that has just finished (or a Submit that navigates on success) is never asked about.
 */
export function useLeaveGuard(isDirty: () => boolean, texts: LeaveGuardTexts): void {
  const showDialog = useDialog();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      isDirty() && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    let answered = false;
    void showDialog({ title: texts.title, message: texts.message, okLabel: texts.leave, cancelLabel: texts.stay, okVariant: 'danger' }).then(
      (leave) => {
        if (answered) return;
        answered = true;
        if (leave) blocker.proceed();
        else blocker.reset();
      },
    );
    return () => {
      answered = true;
    };
  }, [blocker, showDialog, texts]);

  useEffect(() => {
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!isDirty()) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => window.removeEventListener('beforeunload', beforeUnload);
  }, [isDirty]);
}
