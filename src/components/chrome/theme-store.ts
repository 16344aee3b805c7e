/**
 * SPEC §4 Theme: the visitor's mode (light, dark, warm; default light), kept in localStorage under
 * `vite-ui-theme` and shown as a class on <html> (`dark` or `warm`; light adds none). The inline
 * script in BaseLayout applies the stored class before first paint; the header's menu
 * (header-menus.ts) changes it, and follows a change made in another tab.
 *
 * The modes are the firm theme's own variants (decision 031): /theme.css says which the active theme
 * defines (`--site-theme-variants`), and only those are offered. A stored mode the theme no longer
 * defines shows as Light (the stored choice is kept: it applies again if the firm brings the variant
 * back). The list last seen is remembered, so the inline script leaves such a mode off before the
 * first paint of the next page.
 */

export const THEME_STORAGE_KEY = 'vite-ui-theme';
/** The modes the active theme offered when last seen (space-separated), for the inline script (theme-script.ts). */
export const OFFERED_STORAGE_KEY = 'vite-ui-theme-offered';
export const themes = ['light', 'dark', 'warm'] as const;
export type Theme = (typeof themes)[number];
export const defaultTheme: Theme = 'light';

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (themes as readonly string[]).includes(value);
}

/** The stored mode; light when nothing (or something unknown) is stored, or storage is blocked. */
export function readStoredTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return isTheme(stored) ? stored : defaultTheme;
  } catch {
    return defaultTheme;
  }
}

/**
 * The modes the firm's theme defines, read from /theme.css (`--site-theme-variants: light dark`).
 * Without it (the stylesheet could not load) every mode is offered: the site's own palettes apply.
 */
export function offeredThemes(): Theme[] {
  const listed = getComputedStyle(document.documentElement).getPropertyValue('--site-theme-variants').trim().split(/\s+/).filter(isTheme);
  return listed.length ? [...new Set<Theme>([defaultTheme, ...listed])] : [...themes];
}

/** What the page shows for a stored mode: that mode when the theme defines it, else light. */
export const shownTheme = (stored: Theme, offered: readonly Theme[]): Theme => (offered.includes(stored) ? stored : defaultTheme);

/** Remembers the offered modes for the next page's inline script. */
export function rememberOffered(offered: readonly Theme[]) {
  try {
    const text = offered.join(' ');
    if (localStorage.getItem(OFFERED_STORAGE_KEY) !== text) localStorage.setItem(OFFERED_STORAGE_KEY, text);
  } catch {
    // Storage refused: the inline script then applies any stored mode and this module corrects it.
  }
}

/** Shows `theme` on <html>, touching the class only where it differs (no needless style recalculation). */
export function applyThemeClass(theme: Theme) {
  const root = document.documentElement.classList;
  root.toggle('dark', theme === 'dark');
  root.toggle('warm', theme === 'warm');
}

/** The page is the admin's preview of a theme (theme-preview.ts): a choice there is not the visitor's and is not saved. */
export const inPreview = () => document.documentElement.hasAttribute('data-theme-preview');

/** Saves the choice and applies it to the page. */
export function setTheme(theme: Theme) {
  if (!inPreview()) {
    try {
      localStorage.setItem(THEME_STORAGE_KEY, theme);
    } catch {
      // Private modes may refuse storage: the choice still applies to this page.
    }
  }
  applyThemeClass(theme);
}

/** Another tab changed the mode: tells `listener` the mode stored now. */
export function followOtherTabs(listener: (theme: Theme) => void) {
  window.addEventListener('storage', (event) => {
    if (event.key !== THEME_STORAGE_KEY || inPreview()) return;
    listener(isTheme(event.newValue) ? event.newValue : defaultTheme);
  });
}
