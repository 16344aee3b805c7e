/**
 * `client:interaction`: an island that hydrates the first time the visitor reaches into it (focus,
 * a tap or click, a key), not before. For an island the page is complete without (the blog's search
 * over cards already in the HTML): the page loads no framework until the visitor uses it. What the
 * visitor typed or chose before it hydrated is taken over by the component (search-filter.tsx reads
 * the fields on mount).
 */
import type { ClientDirective } from 'astro';

const EVENTS = ['focusin', 'pointerdown', 'keydown'] as const;

const interaction: ClientDirective = (load, _options, island) => {
  const hydrate = async () => {
    for (const type of EVENTS) island.removeEventListener(type, hydrate);
    await (await load())();
  };
  for (const type of EVENTS) island.addEventListener(type, hydrate, { passive: true });
};

export default interaction;
