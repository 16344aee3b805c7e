/**
 * The page's fragment (`#…`, decoded), read in the browser and again whenever it changes; null until
 * read (the page is prerendered the same for everyone). The signed links that travel there: a
 * booking's own page (decision 026) and a draft's preview (decision 034).
 */
import { useEffect, useState } from 'react';

export function useFragment(): string | null {
  const [fragment, setFragment] = useState<string | null>(null);
  useEffect(() => {
    const read = () => setFragment(decodeURIComponent(window.location.hash.slice(1)));
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);
  return fragment;
}
