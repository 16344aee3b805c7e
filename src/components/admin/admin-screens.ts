/**
 * The admin SPA's screens by path: one line per screen. AdminApp picks the screen for
 * window.location.pathname and loads its code only after the guard lets the visitor in; the
 * /admin/[...path] page reads the same table for the document title and a 404 status.
 */
import type { ComponentType } from 'react';

export interface AdminScreen {
  title: string;
  load: () => Promise<{ default: ComponentType }>;
}

export const adminScreens: Readonly<Record<string, AdminScreen>> = {
  '/admin': { title: 'Admin Dashboard', load: () => import('./AdminDashboard.tsx') },
};

export function findAdminScreen(pathname: string): AdminScreen | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  return adminScreens[path] ?? null;
}
