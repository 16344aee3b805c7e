/**
 * The admin SPA's screens by path: one line per screen. AdminApp picks the screen for
 * window.location.pathname and loads its code only after the guard lets the visitor in; the
 * /admin/[...path] page reads the same table for the document title and a 404 status; the admin
 * navigation and the dashboard's Navigation list are drawn from it, so no link points at a screen
 * that does not exist.
 */
import type { ComponentType } from 'react';

export interface AdminScreen {
  title: string;
  /** Shown in the admin navigation (SPEC §2 dashboard Navigation list). */
  nav: string;
  load: () => Promise<{ default: ComponentType }>;
}

export const adminScreens: Readonly<Record<string, AdminScreen>> = {
  '/admin': { title: 'Admin Dashboard', nav: 'Dashboard', load: () => import('./AdminDashboard.tsx') },
  '/admin/blog-posts': { title: 'Blog Posts', nav: 'Blog Posts', load: () => import('./blog-posts/BlogPostsScreen.tsx') },
  '/admin/testimonials': { title: 'Testimonials', nav: 'Testimonials', load: () => import('./testimonials/TestimonialsScreen.tsx') },
  '/admin/contact-submissions': {
    title: 'Contact Submissions',
    nav: 'Contact Submissions',
    load: () => import('./contact-submissions/ContactSubmissionsScreen.tsx'),
  },
  '/admin/appointments': { title: 'Appointments', nav: 'Appointments', load: () => import('./appointments/AppointmentsScreen.tsx') },
  '/admin/availability': { title: 'Availability', nav: 'Availability', load: () => import('./booking-rules/BookingRulesScreen.tsx') },
  '/admin/themes': { title: 'Themes', nav: 'Themes', load: () => import('./themes/ThemesScreen.tsx') },
  '/admin/integrations': { title: 'Integrations', nav: 'Integrations', load: () => import('./integrations/IntegrationsScreen.tsx') },
  '/admin/component-visibility': {
    title: 'Component Visibility',
    nav: 'Component Visibility',
    load: () => import('./component-visibility/ComponentVisibilityScreen.tsx'),
  },
  '/admin/migration': { title: 'Data Migration', nav: 'Migration', load: () => import('./migration/MigrationScreen.tsx') },
  '/admin/admins': { title: 'Admins', nav: 'Admins', load: () => import('./admins/AdminsScreen.tsx') },
};

export function normalizeAdminPath(pathname: string): string {
  return pathname.replace(/\/+$/, '') || '/';
}

export function findAdminScreen(pathname: string): AdminScreen | null {
  return adminScreens[normalizeAdminPath(pathname)] ?? null;
}
