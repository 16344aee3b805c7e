/** SPEC §2 dashboard: Quick Actions and the Navigation list (targets from dashboard-data.ts). */
import { ArrowRight, ExternalLink, FileText, Mail, MessageSquareQuote, Palette, type LucideIcon } from 'lucide-react';
import { Card, CardContent, CardHeader } from '../../ui/card.tsx';
import type { DashboardLink } from './dashboard-data.ts';

const quickIcons: Record<string, LucideIcon> = {
  'New Blog Post': FileText,
  'Add Testimonial': MessageSquareQuote,
  'View Submissions': Mail,
  'Manage Themes': Palette,
};

export function QuickActions({ actions }: { actions: DashboardLink[] }) {
  if (actions.length === 0) return null;
  return (
    <Card className="min-w-0 lg:self-start">
      <CardHeader title="Quick Actions" description="Common tasks, one click away." />
      <CardContent>
        <ul className="grid gap-2 sm:grid-cols-2">
          {actions.map((a) => {
            const Icon = quickIcons[a.label] ?? ArrowRight;
            return (
              <li key={a.href}>
                <a
                  href={a.href}
                  className="flex min-h-14 items-center gap-3 rounded-md border border-border px-3 py-2 hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                >
                  <Icon aria-hidden="true" className="size-5 shrink-0 text-primary" />
                  <span className="min-w-0">
                    <span className="block text-sm font-semibold">{a.label}</span>
                    <span className="block text-xs text-muted-foreground">{a.description}</span>
                  </span>
                </a>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}

export function NavigationList({ links }: { links: DashboardLink[] }) {
  return (
    <Card className="min-w-0">
      <CardHeader title={<span id="dashboard-navigation">Navigation</span>} description="Every admin screen, and the public pages admins change." />
      <CardContent>
        <nav aria-labelledby="dashboard-navigation">
          <ul className="divide-y divide-border">
            {links.map((l) => {
              const publicPage = !l.href.startsWith('/admin');
              return (
                <li key={l.href}>
                  <a
                    href={l.href}
                    className="group flex min-h-12 items-center justify-between gap-3 rounded-sm py-2 hover:text-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                  >
                    <span className="min-w-0">
                      <span className="block text-sm font-medium underline-offset-4 group-hover:underline">{l.label}</span>
                      <span className="block break-words text-xs text-muted-foreground">
                        {publicPage ? `${l.href} · ` : ''}
                        {l.description}
                      </span>
                    </span>
                    {publicPage ? (
                      <ExternalLink aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                    ) : (
                      <ArrowRight aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                    )}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
      </CardContent>
    </Card>
  );
}
