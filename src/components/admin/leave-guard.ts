/**
 * Leaving a page with unsaved work (issue 19): closing the tab or reloading asks through the browser
 * (beforeunload); following a link inside the site asks first in the page's own words
 * (`useLeaveGuard` gives the link's address to confirm), then goes. Links that open elsewhere (a new
 * tab, a download, a modifier key held) leave the work where it is and are not stopped.
 */
import { useEffect, useRef, useState } from 'react';

/** The same-site address a click on a link would load in this tab, or null for any other click. */
export function leavingLinkHref(
  event: Pick<MouseEvent, 'button' | 'metaKey' | 'ctrlKey' | 'shiftKey' | 'altKey' | 'defaultPrevented' | 'target'>,
  here: URL,
): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const target = event.target as Element | null;
  const link = target?.closest?.('a[href]') as HTMLAnchorElement | null;
  if (!link || link.hasAttribute('download')) return null;
  const opens = link.getAttribute('target');
  if (opens && opens !== '_self') return null;
  const url = new URL(link.getAttribute('href')!, here);
  if (url.origin !== here.origin) return null;
  // A link to a place on this page (the skip link) loads nothing.
  if (url.pathname === here.pathname && url.search === here.search && url.hash !== '') return null;
  return url.pathname + url.search + url.hash;
}

/**
 * While `dirty`: the browser asks before the tab closes or reloads, and a click on a link that would
 * leave is held (`leaving` is its address) until `leave()` or `stay()`.
 */
export function useLeaveGuard(dirty: boolean) {
  const [leaving, setLeaving] = useState<string | null>(null);
  // Set on the way out (left on purpose, or saved): the browser must not ask again.
  const released = useRef(false);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (!released.current) event.preventDefault();
    };
    const hold = (event: MouseEvent) => {
      if (released.current) return;
      const href = leavingLinkHref(event, new URL(window.location.href));
      if (!href) return;
      event.preventDefault();
      setLeaving(href);
    };
    window.addEventListener('beforeunload', warn);
    document.addEventListener('click', hold);
    return () => {
      window.removeEventListener('beforeunload', warn);
      document.removeEventListener('click', hold);
    };
  }, [dirty]);
  return {
    leaving,
    /** Asks about leaving for `href` (the page's own Cancel), as a held link would. */
    ask: setLeaving,
    stay: () => setLeaving(null),
    /** Loads `href` with nothing asked: the work was saved or given up. */
    go: (href: string) => {
      released.current = true;
      window.location.assign(href);
    },
  };
}
