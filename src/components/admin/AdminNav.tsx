/**
 * The admin navigation, drawn from admin-screens.ts; the current screen is marked for assistive tech
 * and scrolled into view when the strip is wider than the screen (a phone). Sign Out sits at its end
 * on every screen but the dashboard, which has its own beside the greeting (issue 19: on a phone it
 * was only there).
 */
import { useLayoutEffect, useRef } from 'react';
import SignOutButton from './SignOutButton.tsx';
import { adminScreens } from './admin-screens.ts';

/**
 * `current`: the screen shown, or the one the page shown belongs to (`within`: a post's editor is
 * within Blog Posts, marked as the location rather than the page); null for none.
 */
export default function AdminNav({ current, within = false }: { current: string | null; within?: boolean }) {
  const strip = useRef<HTMLElement>(null);
  const currentLink = useRef<HTMLAnchorElement>(null);
  // Scrolled just enough to show it whole, with a little of the next tab as a hint that the strip
  // scrolls; without moving the page (scrollIntoView would scroll the window too).
  useLayoutEffect(() => {
    const nav = strip.current;
    const link = currentLink.current;
    if (!nav || !link || nav.scrollWidth <= nav.clientWidth) return;
    const hint = 32;
    const right = link.offsetLeft + link.offsetWidth + hint;
    if (right > nav.clientWidth) nav.scrollLeft = right - nav.clientWidth;
  }, []);
  return (
    <div className="-mx-4 mb-6 flex items-center gap-2 border-b border-border px-4">
      {/* On a phone one strip that scrolls (the current screen scrolled into view); from lg up, every tab in sight, on two rows if need be. */}
      <nav ref={strip} aria-label="Admin" className="min-w-0 flex-1 overflow-x-auto lg:overflow-visible">
        <ul className="relative flex min-w-max gap-1 lg:min-w-0 lg:flex-wrap">
          {Object.entries(adminScreens).map(([path, screen]) => (
            <li key={path}>
              <a
                ref={path === current ? currentLink : undefined}
                href={path}
                aria-current={path === current ? (within ? 'location' : 'page') : undefined}
                className="inline-flex h-11 items-center border-b-2 border-transparent px-3 text-sm font-medium lg:px-2 text-muted-foreground hover:text-foreground [&[aria-current]]:border-primary [&[aria-current]]:text-foreground"
              >
                {screen.nav}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {current !== '/admin' && (
        <div className="shrink-0 py-1">
          <SignOutButton size="sm" />
        </div>
      )}
    </div>
  );
}
