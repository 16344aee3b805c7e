/**
 * SPEC §2 dashboard: the 5 most recent contact submissions and the 3 most recent blog posts (SPEC §9),
 * with the empty states of SPEC §8: 'No contact submissions yet', 'No blog posts yet'; and the next
 * consultations (issue 19). One frame for the three: a card with its heading, View all and the list's
 * loading, error and empty states; rows of one shape.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { dateLabel, formatFirmDateTime } from '../../../shared/firm-time.ts';
import type { BlogPost } from '../blog-posts/blog-post-form.ts';
import { practiceAreaLabel } from '../testimonials/testimonial-form.ts';
import { ReadBadge, ResolvedBadge } from '../contact-submissions/SubmissionBadges.tsx';
import { Badge, Card, CardContent, CardHeader } from '../../ui/card.tsx';
import { ListState } from '../../ui/states.tsx';
import AppointmentStatusBadge from '../appointments/AppointmentStatusBadge.tsx';
import { consultationTypeLabel, fullName, splitUpcoming, type Appointment } from '../appointments/appointments.ts';
import { mostRecent, RECENT_POSTS, RECENT_SUBMISSIONS, recentPosts, UPCOMING_APPOINTMENTS, type ContactSubmissionSummary } from './dashboard-data.ts';

function ViewAll({ href, label }: { href?: string; label: string }) {
  if (!href) return null;
  return (
    <a href={href} className="inline-flex min-h-10 items-center text-sm font-medium text-primary underline underline-offset-4 hover:no-underline">
      View all<span className="sr-only"> {label}</span>
    </a>
  );
}

const EmptyLine = ({ children }: { children: string }) => <p className="py-8 text-center text-muted-foreground">{children}</p>;

/** A dashboard list: its card, heading, View all, and the list's states; `pick` chooses the rows shown. */
function RecentCard<T extends { id: string }>({
  id,
  title,
  description,
  href,
  what,
  empty,
  query,
  pick,
  row,
}: {
  id: string;
  title: string;
  description: string;
  href?: string;
  /** The list's name in its error message and View all ('blog posts'). */
  what: string;
  empty: string;
  query: UseQueryResult<T[]>;
  pick: (rows: T[]) => T[];
  row: (item: T) => { main: ReactNode; detail: ReactNode; badges: ReactNode };
}) {
  return (
    <section aria-labelledby={id} className="min-w-0">
      <Card>
        <CardHeader title={<span id={id}>{title}</span>} description={description} actions={<ViewAll href={href} label={what} />} />
        <CardContent>
          <ListState query={query} what={what} empty={<EmptyLine>{empty}</EmptyLine>}>
            {(rows) => {
              const shown = pick(rows);
              if (shown.length === 0) return <EmptyLine>{empty}</EmptyLine>;
              return (
                <ul className="divide-y divide-border">
                  {shown.map((item) => {
                    const { main, detail, badges } = row(item);
                    return (
                      <li key={item.id} className="flex flex-wrap items-start justify-between gap-2 py-3">
                        <div className="min-w-0">
                          {main}
                          {detail}
                        </div>
                        {badges}
                      </li>
                    );
                  })}
                </ul>
              );
            }}
          </ListState>
        </CardContent>
      </Card>
    </section>
  );
}

export function RecentSubmissions({ query, href }: { query: UseQueryResult<ContactSubmissionSummary[]>; href?: string }) {
  return (
    <RecentCard
      id="recent-submissions"
      title="Recent Contact Submissions"
      description="The latest messages from the contact form."
      href={href}
      what="contact submissions"
      empty="No contact submissions yet"
      query={query}
      pick={(rows) => mostRecent(rows, RECENT_SUBMISSIONS)}
      row={(s) => ({
        main: (
          <p className="break-words text-sm font-medium">
            {s.firstName} {s.lastName}
          </p>
        ),
        detail: (
          <>
            <p className="break-all text-xs text-muted-foreground">{s.email}</p>
            <p className="text-xs text-muted-foreground">
              {practiceAreaLabel(s.practiceArea)} · {dateLabel(s.createdAt)}
            </p>
          </>
        ),
        badges: (
          <div className="flex flex-wrap gap-1.5">
            <ReadBadge isRead={s.isRead} />
            <ResolvedBadge isResolved={s.isResolved} />
          </div>
        ),
      })}
    />
  );
}

export function RecentPosts({ query, href }: { query: UseQueryResult<BlogPost[]>; href?: string }) {
  return (
    <RecentCard
      id="recent-posts"
      title="Recent Blog Posts"
      description="The latest articles, drafts included."
      href={href}
      what="blog posts"
      empty="No blog posts yet"
      query={query}
      pick={(rows) => recentPosts(rows, RECENT_POSTS)}
      row={(p) => ({
        main: <p className="break-words text-sm font-medium">{p.title}</p>,
        detail: (
          <p className="text-xs text-muted-foreground">
            {p.author} · {dateLabel(p.publishedAt) ?? 'Draft'}
          </p>
        ),
        badges: <Badge variant={p.isPublished ? 'success' : 'warning'}>{p.isPublished ? 'Published' : 'Draft'}</Badge>,
      })}
    />
  );
}

/** The next consultations (not cancelled), soonest first: what the firm has coming (issue 19). */
export function UpcomingAppointments({ query, href }: { query: UseQueryResult<Appointment[]>; href?: string }) {
  return (
    <RecentCard
      id="upcoming-appointments"
      title="Upcoming Appointments"
      description="The next consultations booked, soonest first."
      href={href}
      what="appointments"
      empty="No upcoming appointments"
      query={query}
      pick={(rows) =>
        splitUpcoming(
          rows.filter((a) => a.status !== 'cancelled'),
          new Date(),
        ).upcoming.slice(0, UPCOMING_APPOINTMENTS)
      }
      row={(a) => ({
        main: <p className="break-words text-sm font-medium">{fullName(a)}</p>,
        detail: (
          <p className="text-xs text-muted-foreground">
            {consultationTypeLabel(a.consultationType)} · <time dateTime={a.scheduledDate}>{formatFirmDateTime(a.scheduledDate)}</time>
          </p>
        ),
        badges: <AppointmentStatusBadge status={a.status} />,
      })}
    />
  );
}
