/**
 * What the dashboard shows (SPEC §2 /admin dashboard, §9 display limits), worked out from the admin
 * lists it loads: the stat card counts, the Quick Actions and Navigation targets (admin ones only
 * when that screen exists, from admin-screens.ts), and the recent items.
 */
import type { AdminScreen } from '../admin-screens.ts';
import type { BlogPost } from '../blog-posts/blog-post-form.ts';
import type { ContactSubmission } from '../contact-submissions/contact-submissions.ts';
import type { Testimonial } from '../testimonials/testimonial-form.ts';
import { NEW_HASH } from '../../ui/use-open-on-hash.ts';

/** The fields of a GET /api/admin/contact-submissions row the dashboard reads. */
export type ContactSubmissionSummary = Pick<
  ContactSubmission,
  'id' | 'firstName' | 'lastName' | 'email' | 'practiceArea' | 'isRead' | 'isResolved' | 'createdAt'
>;

/** SPEC §9 Display limits: 5 recent submissions and 3 recent posts; and the next 5 consultations. */
export const RECENT_SUBMISSIONS = 5;
export const RECENT_POSTS = 3;
export const UPCOMING_APPOINTMENTS = 5;

/** SPEC §9: the traffic card is a fixed +24% (no analytics service is connected). */
export const TRAFFIC_CHANGE = '+24%';

export function submissionCounts(rows: readonly ContactSubmissionSummary[]) {
  return { total: rows.length, unread: rows.filter((r) => !r.isRead).length, unresolved: rows.filter((r) => !r.isResolved).length };
}

export function postCounts(rows: readonly Pick<BlogPost, 'isPublished'>[]) {
  const published = rows.filter((r) => r.isPublished).length;
  return { total: rows.length, published, drafts: rows.length - published };
}

export function testimonialCounts(rows: readonly Pick<Testimonial, 'isPublished'>[]) {
  return { total: rows.length, published: rows.filter((r) => r.isPublished).length };
}

const time = (iso: string | null | undefined) => (iso ? new Date(iso).getTime() || 0 : 0);

/** The newest `limit` rows by creation time (the lists come newest first; this does not rely on it). */
export function mostRecent<T extends { createdAt: string }>(rows: readonly T[], limit: number): T[] {
  return [...rows].sort((a, b) => time(b.createdAt) - time(a.createdAt)).slice(0, limit);
}

/**
 * The posts most recently worked on: a published one by its publish date, a draft by its last edit
 * (seeded posts share one creation time, so creation alone ordered them at random).
 */
export function recentPosts<T extends Pick<BlogPost, 'isPublished' | 'publishedAt' | 'createdAt'> & { updatedAt?: string | null }>(
  rows: readonly T[],
  limit: number,
): T[] {
  const when = (p: T) => (p.isPublished ? time(p.publishedAt) : time(p.updatedAt) || time(p.createdAt));
  return [...rows].sort((a, b) => when(b) - when(a)).slice(0, limit);
}

/** The article the public site shows first: published, latest publish date. */
export function latestPublishedPost<T extends Pick<BlogPost, 'isPublished' | 'publishedAt' | 'createdAt'>>(rows: readonly T[]): T | null {
  const published = rows.filter((r) => r.isPublished);
  published.sort((a, b) => time(b.publishedAt) - time(a.publishedAt) || time(b.createdAt) - time(a.createdAt));
  return published[0] ?? null;
}

export interface DashboardLink {
  href: string;
  label: string;
  description: string;
}

type Screens = Readonly<Record<string, AdminScreen>>;

/** Quick Actions: the new post's page, the new testimonial's dialog, and the two screens most visited, where they exist. */
export function quickActions(screens: Screens): DashboardLink[] {
  const actions = [
    { screen: '/admin/blog-posts', href: '/admin/blog-posts/new', label: 'New Blog Post', description: 'Write an article' },
    { screen: '/admin/testimonials', href: `/admin/testimonials${NEW_HASH}`, label: 'Add Testimonial', description: 'Add what a client said' },
    { screen: '/admin/contact-submissions', href: '/admin/contact-submissions', label: 'View Submissions', description: 'Read and resolve contact requests' },
    { screen: '/admin/themes', href: '/admin/themes', label: 'Manage Themes', description: 'Change the look of the site' },
  ];
  return actions.filter((a) => a.screen in screens).map(({ href, label, description }) => ({ href, label, description }));
}

/** SPEC §2 Navigation targets, in its order. Admin targets appear once their screen exists. */
const adminTargets: Record<string, string> = {
  '/admin/blog-posts': 'Create, edit and publish articles',
  '/admin/testimonials': 'Client testimonials on the home page',
  '/admin/contact-submissions': 'Messages from the contact form',
  '/admin/themes': 'Site themes and colours',
  '/admin/appointments': 'Consultations booked on the site',
  '/admin/integrations': 'Calendar, email, reviews and blog sources',
  '/admin/component-visibility': 'Show or hide parts of the public site',
};

export function navigationLinks(screens: Screens, latestPost: Pick<BlogPost, 'slug' | 'title'> | null): DashboardLink[] {
  const admin = Object.entries(adminTargets)
    .filter(([path]) => path in screens)
    .map(([href, description]) => ({ href, label: screens[href]!.nav, description }));
  const site: DashboardLink[] = [{ href: '/blog', label: 'Public Blog', description: 'The blog as visitors see it' }];
  if (latestPost) site.push({ href: `/blog/${latestPost.slug}`, label: 'Latest Article', description: latestPost.title });
  site.push({ href: '/contact', label: 'Contact Page', description: 'The public contact form' });
  return [...admin, ...site];
}
