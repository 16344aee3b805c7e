/**
 * The admin's live preview of a theme on the real home page (decision 031), loaded by header-menus.ts
 * only when the page is in a frame. The Themes screen of the admin portal frames this page (same
 * origin: `frame-ancestors 'self'`) and sends the unsaved or inactive theme's variables; this page
 * then wears them in place of /theme.css, in this frame only: nothing is stored, and what visitors
 * see does not change. A message counts only from the framing admin page of this very origin, and
 * only its known colours with plain values are used (themePalettes, the /theme.css rule).
 */
import { definedVariants, paletteStylesheet, PREVIEW_READY, PREVIEW_SHOW, themePalettes, type ThemeVariant } from '../../shared/theme-variables.ts';

function framedByAdmin(): boolean {
  try {
    return window.parent !== window && window.parent.location.origin === location.origin && window.parent.location.pathname.startsWith('/admin');
  } catch {
    return false; // another origin's frame: its location cannot even be read
  }
}

if (framedByAdmin()) {
  let style: HTMLStyleElement | null = null;
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (event.origin !== location.origin || event.source !== window.parent) return;
    const data = event.data as { type?: unknown; variables?: unknown; variant?: unknown } | null;
    if (!data || typeof data !== 'object' || data.type !== PREVIEW_SHOW) return;
    const palettes = themePalettes(data.variables);
    const offered = definedVariants(palettes);
    const variant: ThemeVariant = offered.includes(data.variant as ThemeVariant) ? (data.variant as ThemeVariant) : 'light';
    const root = document.documentElement;
    root.setAttribute('data-theme-preview', '');
    // The active theme's stylesheet steps aside, so none of its colours shows through the preview's.
    for (const link of document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][href="/theme.css"]')) link.disabled = true;
    if (!style) {
      style = document.createElement('style');
      style.dataset.themePreview = '';
      document.head.append(style);
    }
    style.textContent = paletteStylesheet(palettes);
    // As theme-store.ts's applyThemeClass (not imported: the module the page runs then stays one file).
    root.classList.toggle('dark', variant === 'dark');
    root.classList.toggle('warm', variant === 'warm');
  });
  window.parent.postMessage({ type: PREVIEW_READY }, location.origin);
}
