/**
 * What another page hands to /login: the username to fill and a sentence to show (an accepted
 * invitation, docs/decisions/041). Kept in this tab's sessionStorage for the one navigation, and
 * taken once: never in the address, where the browser's history would keep it.
 */
const KEY = 'login-handoff';

export interface LoginHandoff {
  username: string;
  notice?: string;
}

export function handOffToLogin(handoff: LoginHandoff): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(handoff));
  } catch {
    // Storage unavailable: /login opens empty, which still works.
  }
}

/** The hand-off, once (then gone), or null. */
export function takeLoginHandoff(): LoginHandoff | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    const value = raw ? (JSON.parse(raw) as Partial<LoginHandoff>) : null;
    if (!value || typeof value.username !== 'string' || !value.username) return null;
    return { username: value.username, ...(typeof value.notice === 'string' ? { notice: value.notice } : {}) };
  } catch {
    return null;
  }
}
