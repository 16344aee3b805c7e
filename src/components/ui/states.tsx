/** Loading, empty and failed states of admin lists, announced to screen readers. */
import type { UseQueryResult } from '@tanstack/react-query';
import { CircleAlert, LoaderCircle, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './button.tsx';

export function LoadingState({ label = 'Loading...' }: { label?: string }) {
  return (
    <p role="status" className="flex items-center justify-center gap-2 py-12 text-muted-foreground">
      <LoaderCircle aria-hidden="true" className="size-5 animate-spin motion-reduce:animate-none" />
      {label}
    </p>
  );
}

export function EmptyState({ icon: Icon, title, description, action }: { icon?: LucideIcon; title: string; description?: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-12 text-center">
      {Icon && <Icon aria-hidden="true" className="size-10 text-muted-foreground" />}
      <h2 className="text-lg font-semibold">{title}</h2>
      {description && <p className="max-w-md text-sm text-muted-foreground">{description}</p>}
      {action}
    </div>
  );
}

/** A list that could not load: says so and offers a retry (nothing is shown as empty when it is not). */
export function ErrorState({ message = 'This list could not be loaded.', onRetry }: { message?: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-lg border border-destructive px-4 py-10 text-center">
      <CircleAlert aria-hidden="true" className="size-8 text-destructive" />
      <p>{message}</p>
      <Button variant="outline" onClick={onRetry}>
        Try Again
      </Button>
    </div>
  );
}

/**
 * One admin list's states, in one place: loading, failed (with Try Again), empty (`empty`), or the
 * rows. `what` names the list in the failure message ('The blog posts could not be loaded.').
 */
export function ListState<T>({
  query,
  what,
  empty,
  children,
}: {
  query: UseQueryResult<T[]>;
  what: string;
  empty: ReactNode;
  children: (rows: T[]) => ReactNode;
}) {
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState message={`The ${what} could not be loaded.`} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
