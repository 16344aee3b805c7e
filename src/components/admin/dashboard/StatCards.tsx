/**
 * The four stat cards of SPEC §2: contact submissions (new and unresolved), blog articles (drafts and
 * published), testimonials (published) and website traffic, a fixed +24% (SPEC §9) that says plainly
 * it is not a measurement.
 */
import { FileText, Mail, MessageSquareQuote, TrendingUp, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '../../ui/card.tsx';
import { TRAFFIC_CHANGE } from './dashboard-data.ts';

type Count<T> = { status: 'loading' } | { status: 'error' } | { status: 'ready'; value: T };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export default function StatCards({
  submissions,
  posts,
  testimonials,
  hrefs,
}: {
  hrefs: { submissions?: string; posts?: string; testimonials?: string };
  submissions: Count<{ total: number; unread: number; unresolved: number }>;
  posts: Count<{ total: number; drafts: number; published: number }>;
  testimonials: Count<{ total: number; published: number }>;
}) {
  return (
    <section aria-labelledby="dashboard-overview" className="space-y-3">
      <h2 id="dashboard-overview" className="sr-only">
        Overview
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard id="stat-submissions" icon={Mail} title="Contact Submissions" href={hrefs.submissions} count={submissions}>
          {(c) => (
            <>
              {plural(c.unread, 'new', 'new')} · {plural(c.unresolved, 'unresolved', 'unresolved')}
            </>
          )}
        </StatCard>
        <StatCard id="stat-posts" icon={FileText} title="Blog Articles" href={hrefs.posts} count={posts}>
          {(c) => (
            <>
              {plural(c.drafts, 'draft')} · {c.published} published
            </>
          )}
        </StatCard>
        <StatCard id="stat-testimonials" icon={MessageSquareQuote} title="Testimonials" href={hrefs.testimonials} count={testimonials}>
          {(c) => <>{c.published} published</>}
        </StatCard>
        <li>
          <Card className="h-full p-4 sm:p-5">
            <CardTitle id="stat-traffic" icon={TrendingUp} title="Website Traffic" />
            <p className="mt-2 text-3xl font-bold tabular-nums">{TRAFFIC_CHANGE}</p>
            <p className="mt-1 text-sm text-muted-foreground">vs last month</p>
            <p className="mt-2 text-xs text-muted-foreground">A fixed sample figure: no analytics service is connected.</p>
          </Card>
        </li>
      </ul>
    </section>
  );
}

function CardTitle({ id, icon: Icon, title }: { id: string; icon: LucideIcon; title: string }) {
  return (
    <div className="flex items-center justify-between gap-2">
      <h3 id={id} className="text-sm font-medium text-muted-foreground">
        {title}
      </h3>
      <Icon aria-hidden="true" className="size-5 text-muted-foreground" />
    </div>
  );
}

function StatCard<T extends { total: number }>({
  id,
  icon,
  title,
  href,
  count,
  children,
}: {
  id: string;
  icon: LucideIcon;
  title: string;
  /** Absent while that screen does not exist. */
  href?: string;
  count: Count<T>;
  children: (value: T) => ReactNode;
}) {
  return (
    <li>
      <Card className="h-full p-4 sm:p-5" aria-busy={count.status === 'loading' || undefined}>
        <CardTitle id={id} icon={icon} title={title} />
        {count.status === 'ready' ? (
          <>
            <p className="mt-2 text-3xl font-bold tabular-nums">
              {count.value.total}
              <span className="sr-only"> total</span>
            </p>
            <p className="mt-1 text-sm text-muted-foreground">{children(count.value)}</p>
          </>
        ) : (
          <p className="mt-2 text-sm text-muted-foreground">{count.status === 'loading' ? 'Loading...' : 'Could not be loaded.'}</p>
        )}
        {href && (
          <a href={href} className="mt-2 inline-flex min-h-10 items-center text-sm font-medium text-primary underline underline-offset-4 hover:no-underline">
            Manage<span className="sr-only"> {title}</span>
          </a>
        )}
      </Card>
    </li>
  );
}
