/**
 * Dashboard Quick Actions (SPEC §2) such as New Blog Post link to a screen with `#new`: the screen
 * opens its create dialog once on arrival, and drops the hash so a reload or Back does not reopen it.
 */
import { useEffect, useRef } from 'react';

export const NEW_HASH = '#new';

export function useOpenOnHash(open: () => void, hash = NEW_HASH) {
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || window.location.hash !== hash) return;
    opened.current = true;
    history.replaceState(history.state, '', window.location.pathname + window.location.search);
    open();
  }, [open, hash]);
}
