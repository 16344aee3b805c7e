/**
 * The header's two menus, on every public page (BaseLayout), without a framework: the theme menu
 * (ThemeMenu.astro, the WAI-ARIA menu button pattern) and the phone's side menu (SideMenu.astro, a
 * native modal <dialog>). The listeners sit on the document, so they work from the moment this small
 * module runs, right after the page is parsed, and nothing a visitor taps waits for a hydration.
 */
import { applyThemeClass, followOtherTabs, isTheme, offeredThemes, readStoredTheme, rememberOffered, setTheme, shownTheme, type Theme } from './theme-store.ts';

declare global {
  interface Window {
    /** Taps on the menu buttons before this module ran, kept by the inline script (theme-script.ts). */
    __earlyTaps?: HTMLElement[];
  }
}

// ---------------------------------------------------------------------------------------------
// Theme menu

const themeRoot = document.querySelector<HTMLElement>('[data-theme-menu]');

if (themeRoot) {
  const button = themeRoot.querySelector<HTMLButtonElement>('[aria-haspopup="menu"]')!;
  const menu = themeRoot.querySelector<HTMLElement>('[role="menu"]')!;
  const allItems = [...menu.querySelectorAll<HTMLElement>('[role="menuitemradio"]')];
  /** The items of the modes the firm's theme defines (decision 031); the others are hidden. */
  let items = allItems;
  const isOpen = () => !menu.hidden;

  const showChecked = (theme: Theme) => {
    for (const item of allItems) {
      const checked = item.dataset.themeValue === theme;
      item.setAttribute('aria-checked', String(checked));
      item.dataset.state = checked ? 'checked' : 'unchecked';
    }
  };
  /** Offers the modes /theme.css lists and shows the stored one if offered, else light. */
  const follow = (stored: Theme) => {
    const offered = offeredThemes();
    for (const item of allItems) item.hidden = !offered.includes(item.dataset.themeValue as Theme);
    items = allItems.filter((item) => !item.hidden);
    const shown = document.documentElement.hasAttribute('data-theme-preview') ? currentClassTheme() : shownTheme(stored, offered);
    applyThemeClass(shown);
    showChecked(shown);
    return offered;
  };
  rememberOffered(follow(readStoredTheme()));
  followOtherTabs(follow);
  // The admin's preview frame (decision 031) loads its few lines only when this page is framed.
  if (window.parent !== window) void import('./theme-preview.ts');

  const open = (focus: 'checked' | 'first' | 'last') => {
    // The preview (theme-preview.ts) may have changed the modes on offer since the page loaded.
    if (document.documentElement.hasAttribute('data-theme-preview')) follow(currentClassTheme());
    menu.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    const checked = items.find((item) => item.getAttribute('aria-checked') === 'true');
    (focus === 'last' ? items.at(-1) : focus === 'first' ? items[0] : (checked ?? items[0]))?.focus();
  };
  const close = ({ returnFocus }: { returnFocus: boolean }) => {
    if (!isOpen()) return;
    menu.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    if (returnFocus) button.focus();
  };
  const choose = (item: HTMLElement) => {
    const theme = item.dataset.themeValue;
    if (isTheme(theme)) {
      setTheme(theme);
      showChecked(theme);
    }
    close({ returnFocus: true });
  };
  const move = (from: number, by: number) => items[(from + by + items.length) % items.length]?.focus();

  button.addEventListener('click', () => (isOpen() ? close({ returnFocus: true }) : open('checked')));
  button.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      open(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  });
  menu.addEventListener('click', (event) => {
    const item = (event.target as Element).closest<HTMLElement>('[role="menuitemradio"]');
    if (item) choose(item);
  });
  // The pointer and the keyboard share one highlight: the focused item.
  menu.addEventListener('pointermove', (event) => {
    const item = (event.target as Element).closest<HTMLElement>('[role="menuitemradio"]');
    if (item && document.activeElement !== item) item.focus();
  });
  menu.addEventListener('keydown', (event) => {
    const at = items.indexOf(document.activeElement as HTMLElement);
    const key = event.key;
    if (key === 'ArrowDown' || key === 'ArrowUp') move(at, key === 'ArrowDown' ? 1 : -1);
    else if (key === 'Home' || key === 'End') items[key === 'Home' ? 0 : items.length - 1]?.focus();
    else if (key === 'Enter' || key === ' ') {
      if (at >= 0) choose(items[at]!);
    } else if (key === 'Escape') close({ returnFocus: true });
    else if (key === 'Tab') return close({ returnFocus: false });
    else if (key.length === 1 && /\S/.test(key)) {
      // Typeahead: the next item whose label starts with the letter.
      const next = [...items.slice(at + 1), ...items.slice(0, at + 1)].find((item) => item.textContent?.trim().toLowerCase().startsWith(key.toLowerCase()));
      next?.focus();
    } else return;
    event.preventDefault();
  });
  // A click or a focus anywhere else closes it.
  document.addEventListener('pointerdown', (event) => {
    if (isOpen() && !themeRoot.contains(event.target as Node)) close({ returnFocus: false });
  });
  document.addEventListener('focusin', (event) => {
    if (isOpen() && !themeRoot.contains(event.target as Node)) close({ returnFocus: false });
  });
  themeRoot.dataset.ready = '';
}

/** The mode the page shows now, by the class on <html>. */
function currentClassTheme(): Theme {
  const root = document.documentElement.classList;
  return root.contains('dark') ? 'dark' : root.contains('warm') ? 'warm' : 'light';
}

// ---------------------------------------------------------------------------------------------
// Side menu (below md)

const sideMenu = document.querySelector<HTMLDialogElement>('dialog#side-menu');
const opener = document.querySelector<HTMLButtonElement>('[data-side-menu-open]');

if (sideMenu && opener) {
  const focusable = () =>
    [...sideMenu.querySelectorAll<HTMLElement>('a[href], button:not([disabled])')].filter((el) => el.offsetParent !== null || el === document.activeElement);

  opener.addEventListener('click', () => {
    sideMenu.showModal();
    opener.setAttribute('aria-expanded', 'true');
  });
  sideMenu.addEventListener('close', () => {
    opener.setAttribute('aria-expanded', 'false');
    // Focus goes back to the Menu button (unless the visitor followed a link or opened the booking).
    if (!document.activeElement || document.activeElement === document.body || sideMenu.contains(document.activeElement)) opener.focus();
  });
  sideMenu.addEventListener('click', (event) => {
    const target = event.target as Element;
    // A tap on the backdrop (outside the sheet's box) is a tap on the dialog itself.
    if (target === sideMenu || target.closest('[data-side-menu-close]')) sideMenu.close();
    // Schedule Consultation opens the booking modal (booking-loader.ts) once this menu has closed.
    else if (target.closest('[data-booking-trigger]')) sideMenu.close();
  });
  // Tab goes round inside the sheet rather than out to the browser's own controls.
  sideMenu.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return;
    const stops = focusable();
    const first = stops[0];
    const last = stops.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
  sideMenu.dataset.ready = '';
}

// ---------------------------------------------------------------------------------------------
// Taps that came before this module ran: from now on the buttons answer themselves.

const early = window.__earlyTaps ?? [];
window.__earlyTaps = undefined;
// The last tap on each button counts once (two taps on the theme button before now: open, not open and shut).
for (const button of new Set(early)) button.click();
