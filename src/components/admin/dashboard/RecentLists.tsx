/**
 * SPEC §2 dashboard: the 5 most recent contact submissions and the 3 most recent blog posts (SPEC §9),
 * with the empty states of SPEC §8: 'No contact submissions yet', 'No blog posts yet'.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import { dateLabel } from '../../../shared/firm-time.ts';
import type { BlogPost } from '../blog-posts/blog-post-form.ts';
import { practiceAreaLabel } from '../testimonials/testimonial-form.ts';
import { ReadBadge, ResolvedBadge } from '../contact-submissions/SubmissionBadges.tsx';
import { Badge, Card, CardContent, CardHeader } from '../../ui/card.tsx';
import { ListState } from '../../ui/states.tsx';
import AppointmentStatusBadge from '../appointments/AppointmentStatusBadge.tsx';
import { consultationTypeLabel, fullName, splitUpcoming, type Appointment } from '../appointments/appointments.ts';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';
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

export function RecentSubmissions({ query, href }: { query: UseQueryResult<ContactSubmissionSummary[]>; href?: string }) {
  return (
    <section aria-labelledby="recent-submissions" className="min-w-0">
      <Card>
        <CardHeader
          title={<span id="recent-submissions">Recent Contact Submissions</span>}
          description="The latest messages from the contact form."
          actions={<ViewAll href={href} label="contact submissions" />}
        />
        <CardContent>
          <ListState query={query} what="contact submissions" empty={<EmptyLine>No contact submissions yet</EmptyLine>}>
            {(rows) => (
              <ul className="divide-y divide-border">
                {mostRecent(rows, RECENT_SUBMISSIONS).map((s) => (
                  <li key={s.id} className="flex flex-wrap items-start justify-between gap-2 py-3">
                    <div className="min-w-0">
                      <p className="break-words text-sm font-medium">
                        {s.firstName} {s.lastName}
                      </p>
                      <p className="break-all text-xs text-muted-foreground">{s.email}</p>
                      <p className="text-xs text-muted-foreground">
                        {practiceAreaLabel(s.practiceArea)} · {dateLabel(s.createdAt)}
                      </p>
                    </div>
                    <div className="flex flex-wrap gap-1.5">
                      <ReadBadge isRead={s.isRead} />
                      <ResolvedBadge isResolved={s.isResolved} />
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </ListState>
        </CardContent>
      </Card>
    </section>
  );
}

export function RecentPosts({ query, href }: { query: UseQueryResult<BlogPost[]>; href?: string }) {
  return (
    <section aria-labelledby="recent-posts" className="min-w-0">
      <Card>
        <CardHeader
          title={<span id="recent-posts">Recent Blog Posts</span>}
          description="The latest articles, drafts included."
          actions={<ViewAll href={href} label="blog posts" />}
        />
        <CardContent>
          <ListState query={query} what="blog posts" empty={<EmptyLine>No blog posts yet</EmptyLine>}>
            {(rows) => (
              <ul className="divide-y divide-border">
                {recentPosts(rows, RECENT_POSTS).map((p) => (
                  <li key={p.id} className="flex flex-wrap items-start justify-between gap-2 py-3">
                    <div className="min-w-0">
                      <p className="break-words text-sm font-medium">{p.title}</p>
                      <p className="text-xs text-muted-foreground">
                        {p.author} · {dateLabel(p.publishedAt) ?? 'Draft'}
                      </p>
                    </div>
                    <Badge variant={p.isPublished ? 'success' : 'warning'}>{p.isPublished ? 'Published' : 'Draft'}</Badge>
                  </li>
                ))}
              </ul>
            )}
          </ListState>
        </CardContent>
      </Card>
    </section>
  );
}

/** The next consultations (not cancelled), soonest first: what the firm has coming (issue 19). */
export function UpcomingAppointments({ query, href }: { query: UseQueryResult<Appointment[]>; href?: string }) {
  return (
    <section aria-labelledby="upcoming-appointments" className="min-w-0">
      <Card>
        <CardHeader
          title={<span id="upcoming-appointments">Upcoming Appointments</span>}
          description="The next consultations booked, soonest first."
          actions={<ViewAll href={href} label="appointments" />}
        />
        <CardContent>
          <ListState query={query} what="appointments" empty={<EmptyLine>No upcoming appointments</EmptyLine>}>
            {(rows) => {
              const next = splitUpcoming(
                rows.filter((a) => a.status !== 'cancelled'),
                new Date(),
              ).upcoming.slice(0, UPCOMING_APPOINTMENTS);
              if (next.length === 0) return <EmptyLine>No upcoming appointments</EmptyLine>;
              return (
                <ul className="divide-y divide-border">
                  {next.map((a) => (
                    <li key={a.id} className="flex flex-wrap items-start justify-between gap-2 py-3">
                      <div className="min-w-0">
                        <p className="break-words text-sm font-medium">{fullName(a)}</p>
                        <p className="text-xs text-muted-foreground">
                          {consultationTypeLabel(a.consultationType)} · <time dateTime={a.scheduledDate}>{formatFirmDateTime(a.scheduledDate)}</time>
                        </p>
                      </div>
                      <AppointmentStatusBadge status={a.status} />
                    </li>
                  ))}
                </ul>
              );
            }}
          </ListState>
        </CardContent>
      </Card>
    </section>
  );
}
