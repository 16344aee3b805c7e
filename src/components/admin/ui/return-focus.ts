/**
 * Where the focus goes when a dialog closes (WCAG 2.4.3). Radix gives it back to a DialogTrigger, but
 * a dialog opened from state (one details dialog for a whole list, a confirmation opened from a menu)
 * has no trigger, and the focus would fall to the page's start. Remember the opener when opening,
 * pass `restore` as the dialog's onCloseAutoFocus: the focus returns to the opener, or, when the
 * opener is gone (its row was deleted, its button no longer applies), to a fallback.
 */
import { useMemo, useRef } from 'react';

export function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  return useMemo(
    () => ({
      /** The element to return to: the one given (a click's currentTarget), else the focused one. */
      remember(element?: Element | null) {
        const target = element ?? document.activeElement;
        opener.current = target instanceof HTMLElement && target !== document.body ? target : null;
      },
      /** For onCloseAutoFocus. */
      restore(event: Event, fallback?: () => HTMLElement | null | undefined) {
        event.preventDefault();
        const remembered = opener.current;
        opener.current = null;
        const usable = remembered?.isConnected && !remembered.matches(':disabled') ? remembered : null;
        (usable ?? fallback?.() ?? null)?.focus();
      },
    }),
    [],
  );
}
