/**
 * The frame of every admin screen but the dashboard: the screen's heading (the page's one h1), an
 * optional description and actions, and the way back: to the dashboard, or for a page inside a
 * screen (a post's editor) to that screen (`back`).
 */
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';

export default function AdminPage({
  title,
  description,
  actions,
  back = { href: '/admin', label: 'Back to Admin Dashboard' },
  children,
}: {
  title: string;
  back?: { href: string; label: string };
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="space-y-6">
      <div className="space-y-3 border-b border-border pb-5">
        <a href={back.href} className="inline-flex items-center gap-1.5 text-sm text-muted-foreground underline-offset-4 hover:text-foreground hover:underline">
          <ArrowLeft aria-hidden="true" className="size-4" />
          {back.label}
        </a>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="min-w-0">
            {/* Focusable by script: where the focus goes when what held it is gone (the last row deleted). */}
            <h1 tabIndex={-1} className="text-2xl font-bold focus:outline-none sm:text-3xl">
              {title}
            </h1>
            {description && <p className="mt-1 text-muted-foreground">{description}</p>}
          </div>
          {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
        </div>
      </div>
      {children}
    </div>
  );
}
