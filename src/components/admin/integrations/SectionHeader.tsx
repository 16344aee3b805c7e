/** The heading of one tab's panel (the page's h2), what it is for, and its main action. */
import type { ReactNode } from 'react';

export default function SectionHeader({ id, title, description, action }: { id: string; title: string; description: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div className="min-w-0 max-w-prose">
        <h2 id={id} className="text-xl font-semibold">
          {title}
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">{description}</p>
      </div>
      {action && <div className="flex flex-wrap gap-2">{action}</div>}
    </div>
  );
}
