/**
 * The dashboard's warning when the CDN has not confirmed purges: visitors may see old pages until it
 * does (the purges wait in the database and are sent again every few seconds). Nothing waiting,
 * nothing shown; a status that cannot be loaded is not a warning of its own (DeliveryWarnings says
 * when the dashboard's status calls fail).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CircleAlert } from 'lucide-react';
import { api, read } from '../../../lib/api-client.ts';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';

export const cdnPurgesQuery = queryOptions({
  queryKey: ['/api/admin/cdn/purges'],
  queryFn: () => read(api.admin.cdn.purges.$get()),
  // Asked again every half minute while the dashboard is open: the warning leaves once the CDN confirms.
  refetchInterval: 30_000,
});

export default function CdnPurgeWarning() {
  const purges = useQuery(cdnPurgesQuery);
  if (!purges.data?.pending) return null;
  const { pending, oldestAt, lastError } = purges.data;
  return (
    <section
      aria-labelledby="cdn-purge-warning"
      className="flex items-start gap-3 rounded-lg border-2 border-amber-600 bg-amber-50 p-4 text-amber-950 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-50"
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <div className="min-w-0 space-y-1">
        <h2 id="cdn-purge-warning" className="font-semibold">
          Visitors may see old pages
        </h2>
        <p className="text-sm">
          The CDN has not confirmed {pending === 1 ? 'one update' : `${pending} updates`}
          {oldestAt ? ` since ${formatFirmDateTime(new Date(oldestAt))}` : ''}. They are sent again every few seconds until it does.
        </p>
        {lastError && <p className="break-words text-sm">The CDN answered: {lastError}</p>}
      </div>
    </section>
  );
}
