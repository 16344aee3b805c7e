/**
 * The dialogs of an admin list screen (blog posts, testimonials; SPEC §2, §5): the create/edit dialog
 * (`editor.row` is the row being edited, null for a new one) and the delete confirmation (`deleting`).
 * Each remembers the button that opened it and gives the focus back there on close (WCAG 2.4.3,
 * ./return-focus.ts), or, when that button is gone (its row was deleted, or the dialog opened from a
 * dashboard link's #new, ./use-open-on-hash.ts), to the screen's main action: put `mainAction` on it.
 */
import { useCallback, useRef, useState } from 'react';
import { useOpenOnHash } from './use-open-on-hash.ts';
import { useReturnFocus } from './return-focus.ts';

export function useListEditor<T>() {
  const [editor, setEditor] = useState<{ open: boolean; row: T | null }>({ open: false, row: null });
  const [deleting, setDeleting] = useState<T | null>(null);
  const mainAction = useRef<HTMLButtonElement>(null);
  const focus = useReturnFocus();
  const { remember } = focus;

  const openNew = useCallback(() => {
    remember();
    setEditor({ open: true, row: null });
  }, [remember]);
  useOpenOnHash(openNew);

  return {
    editor,
    deleting,
    mainAction,
    openNew,
    openEdit: (row: T) => {
      remember();
      setEditor({ open: true, row });
    },
    askDelete: (row: T) => {
      remember();
      setDeleting(row);
    },
    /** The edit dialog's onOpenChange (it keeps its row while it animates closed). */
    setEditorOpen: (open: boolean) => setEditor((e) => ({ ...e, open })),
    closeDelete: () => setDeleting(null),
    /** For both dialogs' onCloseAutoFocus. */
    restoreFocus: (event: Event) => focus.restore(event, () => mainAction.current),
  };
}
