/**
 * The one toast system (STYLE §11): a nanostore queue that any island or the admin SPA writes with
 * `toast()`, shown by `src/components/ui/Toaster.tsx` (Radix Toast). SPEC §4 Toasts: at most one
 * at a time; actions add, update, dismiss, remove; variants default and destructive. SPEC §9: default
 * duration 5000 ms, removal delay 1000000 ms, swipe threshold 50, hotkey F8.
 */
import { atom } from 'nanostores';

export type ToastVariant = 'default' | 'destructive';

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before it closes by itself; TOAST_DURATION unless given. */
  duration?: number;
}

export interface ToastItem extends ToastOptions {
  id: string;
  /** False once dismissed: Radix closes it, then it is removed from the queue. */
  open: boolean;
}

export const TOAST_LIMIT = 1;
export const TOAST_DURATION = 5000;
export const TOAST_REMOVE_DELAY = 1_000_000;
export const TOAST_SWIPE_THRESHOLD = 50;
export const TOAST_HOTKEY = ['F8'];

export const $toasts = atom<ToastItem[]>([]);

let counter = 0;
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function scheduleRemoval(id: string) {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      remove(id);
    }, TOAST_REMOVE_DELAY),
  );
}

/** Shows a toast, replacing the one on screen (TOAST_LIMIT). */
export function toast(options: ToastOptions) {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  const item: ToastItem = { variant: 'default', ...options, id, open: true };
  $toasts.set([item, ...$toasts.get()].slice(0, TOAST_LIMIT));
  return {
    id,
    dismiss: () => dismiss(id),
    update: (changes: Partial<ToastOptions>) => update(id, changes),
  };
}

export function update(id: string, changes: Partial<ToastOptions>) {
  $toasts.set($toasts.get().map((t) => (t.id === id ? { ...t, ...changes } : t)));
}

/** Closes one toast, or all of them when no id is given. */
export function dismiss(id?: string) {
  $toasts.set(
    $toasts.get().map((t) => {
      if (id !== undefined && t.id !== id) return t;
      scheduleRemoval(t.id);
      return { ...t, open: false };
    }),
  );
}

export function remove(id?: string) {
  for (const [timerId, timer] of removalTimers) {
    if (id === undefined || timerId === id) {
      clearTimeout(timer);
      removalTimers.delete(timerId);
    }
  }
  $toasts.set(id === undefined ? [] : $toasts.get().filter((t) => t.id !== id));
}

/*
 * A toast that announces the result of an action which then loads another page (signed in, so go
 * to /admin; signed out, so go to /login) would vanish with the page. It is kept in sessionStorage
 * and shown by the next page's Toaster instead.
 */
const PENDING_KEY = 'toast:pending';

export function toastOnNextPage(options: ToastOptions) {
  try {
    sessionStorage.setItem(PENDING_KEY, JSON.stringify(options));
  } catch {
    toast(options); // storage unavailable: show it now rather than lose it
  }
}

/** Called once by the Toaster when it mounts. */
export function showPendingToast() {
  let raw: string | null = null;
  try {
    raw = sessionStorage.getItem(PENDING_KEY);
    sessionStorage.removeItem(PENDING_KEY);
  } catch {
    return;
  }
  if (!raw) return;
  try {
    const options = JSON.parse(raw) as ToastOptions;
    if (typeof options?.title === 'string') toast(options);
  } catch {
    /* a malformed entry is dropped */
  }
}
