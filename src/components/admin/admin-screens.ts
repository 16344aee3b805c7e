/**
 * The admin SPA's screens by path: one line per screen. AdminApp picks the screen for
 * window.location.pathname and loads its code only after the guard lets the visitor in; the
 * /admin/[...path] page reads the same table for the document title and a 404 status; the admin
 * navigation and the dashboard's Navigation list are drawn from it, so no link points at a screen
 * that does not exist. A page inside a screen (a post's editor) is found by its pattern in
 * `adminSubpages`; the navigation marks the screen it belongs to.
 */
import type { ComponentType } from 'react';

/** What a screen is given: the parts of its path its pattern names (a post's id). */
export interface AdminScreenProps {
  params: Readonly<Record<string, string>>;
}

type LoadScreen = () => Promise<{ default: ComponentType<AdminScreenProps> }>;

export interface AdminScreen {
  title: string;
  /** Shown in the admin navigation (SPEC §2 dashboard Navigation list). */
  nav: string;
  load: LoadScreen;
}

export interface AdminSubpage {
  /** The screen it belongs to (a key of adminScreens): the navigation marks it. */
  screen: string;
  /** The whole path, with named groups for the params. */
  pattern: RegExp;
  title: (params: Readonly<Record<string, string>>) => string;
  load: LoadScreen;
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

/** Issue 19: a post is written on a page of its own, not in a dialog over the list. */
export const adminSubpages: readonly AdminSubpage[] = [
  {
    screen: '/admin/blog-posts',
    pattern: /^\/admin\/blog-posts\/(?<id>[A-Za-z0-9_-]{1,64})$/,
    title: ({ id }) => (id === 'new' ? 'New Blog Post' : 'Edit Blog Post'),
    load: () => import('./blog-posts/BlogPostEditorScreen.tsx'),
  },
];

export function normalizeAdminPath(pathname: string): string {
  return pathname.replace(/\/+$/, '') || '/';
}

export interface FoundAdminScreen {
  title: string;
  /** The adminScreens key the navigation marks. */
  section: string;
  params: Readonly<Record<string, string>>;
  load: LoadScreen;
}

export function findAdminScreen(pathname: string): FoundAdminScreen | null {
  const path = normalizeAdminPath(pathname);
  const screen = adminScreens[path];
  if (screen) return { title: screen.title, section: path, params: {}, load: screen.load };
  for (const page of adminSubpages) {
    const params = page.pattern.exec(path)?.groups;
    if (params) return { title: page.title(params), section: page.screen, params: { ...params }, load: page.load };
  }
  return null;
}
