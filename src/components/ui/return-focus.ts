/**
 * Where the focus goes when a dialog closes (WCAG 2.4.3), for every dialog of the site and the admin.
 * Radix gives it back to a DialogTrigger, but a dialog opened from state (one details dialog for a
 * whole list, a confirmation opened from a menu, the booking modal opened by any Schedule button) has
 * no trigger, and the focus would fall to the page's start. Remember the opener when opening, call
 * `restore` from the dialog's onCloseAutoFocus: the focus returns to the opener, or, when it is gone
 * (its row was deleted, the menu it was in has closed), to what had the focus at opening, or to a
 * fallback.
 */
import { useMemo } from 'react';

export interface ReturnFocus {
  /** The element to return to: the one given (a click's currentTarget), else the focused one. */
  remember(element?: Element | null): void;
  /** For onCloseAutoFocus. */
  restore(event: Event, fallback?: () => HTMLElement | null | undefined): void;
}

/** Still there, shown and usable: a button in a closed menu or a deleted row is not. */
const usable = (el: Element | null): el is HTMLElement =>
  el instanceof HTMLElement && el !== document.body && el.isConnected && !el.matches(':disabled') && el.getClientRects().length > 0;

/** One dialog's memory of its opener (outside React: the booking modal's entry point keeps one). */
export function createReturnFocus(): ReturnFocus {
  let candidates: (Element | null)[] = [];
  return {
    remember(element) {
      candidates = [element ?? null, document.activeElement];
    },
    restore(event, fallback) {
      event.preventDefault();
      const remembered = candidates.find(usable);
      candidates = [];
      (remembered ?? fallback?.() ?? null)?.focus();
    },
  };
}

export function useReturnFocus(): ReturnFocus {
  return useMemo(createReturnFocus, []);
}
