/**
 * SPEC §4 Theme: the visitor's mode (light, dark, warm; default light), kept in localStorage under
 * `vite-ui-theme` and shown as a class on <html> (`dark` or `warm`; light adds none). The inline
 * script in BaseLayout applies the stored class before first paint; the header's menu
 * (header-menus.ts) changes it, and follows a change made in another tab.
 */

export const THEME_STORAGE_KEY = 'vite-ui-theme';
export const themes = ['light', 'dark', 'warm'] as const;
export type Theme = (typeof themes)[number];
export const defaultTheme: Theme = 'light';

export const themeLabels: Record<Theme, string> = { light: 'Light', dark: 'Dark', warm: 'Warm' };

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

function applyThemeClass(theme: Theme) {
  const root = document.documentElement;
  root.classList.remove('dark', 'warm');
  if (theme !== 'light') root.classList.add(theme);
}

/** Saves the choice and applies it to the page. */
export function setTheme(theme: Theme) {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private modes may refuse storage: the choice still applies to this page.
  }
  applyThemeClass(theme);
}

/** Another tab changed the mode: applies it here too, and tells `listener`. */
export function followOtherTabs(listener: (theme: Theme) => void) {
  window.addEventListener('storage', (event) => {
    if (event.key !== THEME_STORAGE_KEY) return;
    const theme = isTheme(event.newValue) ? event.newValue : defaultTheme;
    applyThemeClass(theme);
    listener(theme);
  });
}
