/**
 * /admin (SPEC §2 dashboard): the greeting with the username and Sign Out; warnings about mail that
 * is held or failed (issue 19); the four stat cards; Quick
 * Actions and the Navigation list; the next 5 appointments, the 5 most recent contact submissions and the 3
 * most recent blog posts (by publish date, a draft by its last edit). Counts come from the admin lists (SPEC §7), so they are the same rows the screens show, and
 * a link only points at a screen that exists (admin-screens.ts).
 */
import type { UseQueryResult } from '@tanstack/react-query';
import { useAdminSession } from './AdminGuard.tsx';
import SignOutButton from './SignOutButton.tsx';
import { adminQueries, useAdminList } from './admin-api.ts';
import { adminScreens } from './admin-screens.ts';
import { NavigationList, QuickActions } from './dashboard/DashboardLinks.tsx';
import { RecentPosts, RecentSubmissions, UpcomingAppointments } from './dashboard/RecentLists.tsx';
import CdnPurgeWarning from './dashboard/CdnPurgeWarning.tsx';
import DeliveryWarnings from './dashboard/DeliveryWarnings.tsx';
import StatCards from './dashboard/StatCards.tsx';
import { latestPublishedPost, navigationLinks, postCounts, quickActions, submissionCounts, testimonialCounts } from './dashboard/dashboard-data.ts';

function count<T, R>(query: UseQueryResult<T[]>, of: (rows: T[]) => R) {
  if (query.isPending) return { status: 'loading' } as const;
  if (query.isError) return { status: 'error' } as const;
  return { status: 'ready', value: of(query.data) } as const;
}

const screenHref = (path: string) => (path in adminScreens ? path : undefined);

export default function AdminDashboard() {
  const { username } = useAdminSession();
  const submissions = useAdminList(adminQueries.contactSubmissions);
  const posts = useAdminList(adminQueries.blogPosts);
  const testimonials = useAdminList(adminQueries.testimonials);
  const appointments = useAdminList(adminQueries.appointments);
  const latestPost = latestPublishedPost(posts.data ?? []);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4 border-b border-border pb-6">
        <div>
          <h1 className="text-2xl font-bold sm:text-3xl">Admin Dashboard</h1>
          <p className="mt-1 text-muted-foreground">
            Welcome back, <span className="font-semibold text-foreground">{username}</span>
          </p>
        </div>
        <SignOutButton />
      </div>

      <DeliveryWarnings />
      <CdnPurgeWarning />

      <StatCards
        submissions={count(submissions, submissionCounts)}
        posts={count(posts, postCounts)}
        testimonials={count(testimonials, testimonialCounts)}
        hrefs={{
          submissions: screenHref('/admin/contact-submissions'),
          posts: screenHref('/admin/blog-posts'),
          testimonials: screenHref('/admin/testimonials'),
        }}
      />

      <div className="grid gap-6 lg:grid-cols-2">
        <QuickActions actions={quickActions(adminScreens)} />
        <NavigationList links={navigationLinks(adminScreens, latestPost)} />
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <UpcomingAppointments query={appointments} href={screenHref('/admin/appointments')} />
        <RecentSubmissions query={submissions} href={screenHref('/admin/contact-submissions')} />
        <RecentPosts query={posts} href={screenHref('/admin/blog-posts')} />
      </div>
    </div>
  );
}
