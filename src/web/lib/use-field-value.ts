import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useHydrated } from './use-hydrated';

/** A text field's `onChange`, as the field calls it and as `useFieldValue` calls it for the text the page held. */
export type FieldChangeHandler = (event: { target: { value: string } }) => void;

/** What a text field's `Form.Control` takes from `useFieldValue`: its element, its value and its `onChange`. */
export type FieldValueProps = { ref: RefObject<(HTMLInputElement & HTMLTextAreaElement) | null>; onChange: FieldChangeHandler; defaultValue: string; value?: string };

/**
 * A controlled text field that keeps what the reader typed, pasted or autofilled into the
 * server's HTML before the app hydrated. Preact, which hydrates in the browser, puts the field's
 * state back over that text (a textarea's as it hydrates, an input's with its next render) and
 * never calls `onChange` for it, so the form would send its first state while the reader's text
 * was, or had been, in the field. Here the field is uncontrolled while it hydrates (`defaultValue`:
 * the same HTML from the server), and the text it then holds, if it is not what the page came
 * with, goes to `onChange` before anything can submit the form; from then on it is controlled.
 * The server's text stays its `defaultValue` after that: a prop that went away would be cleared
 * (Preact sets `defaultValue` to ''), and a field nobody has typed into follows its default, so its
 * text would go and come back, and a selection in it (a paste or an autofill about to replace it)
 * would be lost: the new text landed after the old (`early-input.spec.ts`, found on a busy CI run).
 */
export function useFieldValue(value: string, onChange: FieldChangeHandler): FieldValueProps {
  const hydrated = useHydrated();
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [serverText] = useState(value);

  useLayoutEffect(() => {
    const field = ref.current;
    if (!hydrated && field && field.value !== field.defaultValue) onChange({ target: { value: field.value } });
  }, [hydrated, onChange]);

  return hydrated ? { ref, value, defaultValue: serverText, onChange } : { ref, defaultValue: value, onChange };
}
