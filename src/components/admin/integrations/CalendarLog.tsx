/**
 * The Calendar log (issue 20, decision 036; GET /api/admin/calendar-notices): what the firm's calendars
 * did that no request could tell the admin. A calendar that could not be read (bookings went on with
 * the site's own appointments only), when it answered again, a Calendly booking that landed on time
 * already booked. One entry per outage, with how often and since when. Loads once; Refresh reloads.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { api, read } from '../../../lib/api-client.ts';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';
import { Button } from '../../ui/button.tsx';
import { Badge, type BadgeVariant } from '../../ui/card.tsx';
import { integrationLabel, type CalendarIntegration } from './integrations.ts';

const fetchLog = () => read(api.admin['calendar-notices'].$get());

export const calendarLogQuery = queryOptions({ queryKey: ['/api/admin/calendar-notices'], queryFn: fetchLog });

type Entry = Awaited<ReturnType<typeof fetchLog>>[number];

const kinds: Record<string, { label: string; variant: BadgeVariant }> = {
  unreachable: { label: 'Could not be read', variant: 'destructive' },
  'reachable-again': { label: 'Reachable again', variant: 'success' },
  overlap: { label: 'Overlap', variant: 'warning' },
};

/** `integrations`: the list on the screen, to name an entry's integration while it exists and to tell whether it is still read. */
export default function CalendarLog({ integrations }: { integrations: readonly CalendarIntegration[] }) {
  const query = useQuery(calendarLogQuery);
  return (
    <section aria-labelledby="calendar-log-title" className="space-y-2" data-testid="calendar-log">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h3 id="calendar-log-title" className="text-base font-semibold">
            Calendar log
          </h3>
          <p className="text-sm text-muted-foreground">When a connected calendar could not be read for busy times, and bookings that overlap.</p>
        </div>
        <Button variant="ghost" size="sm" className="h-10" disabled={query.isFetching} onClick={() => void query.refetch()}>
          <RefreshCw aria-hidden="true" className={`size-4 ${query.isFetching ? 'motion-safe:animate-spin' : ''}`} />
          {query.isFetching ? 'Refreshing...' : 'Refresh'}
          <span className="sr-only"> the calendar log</span>
        </Button>
      </div>
      {query.isPending ? (
        <p className="text-sm text-muted-foreground">Loading the calendar log...</p>
      ) : query.isError ? (
        <p role="alert" className="text-sm text-destructive">
          The calendar log could not be loaded.
        </p>
      ) : query.data.length === 0 ? (
        <p className="rounded-md border border-dashed border-border p-4 text-sm text-muted-foreground">
          Nothing to report: every calendar read for busy times has answered, and no bookings overlap.
        </p>
      ) : (
        <ul className="divide-y divide-border rounded-md border border-border text-sm">
          {query.data.map((entry) => (
            <LogItem key={entry.id} entry={entry} integration={integrations.find((i) => i.id === entry.integrationId) ?? null} />
          ))}
        </ul>
      )}
    </section>
  );
}

function LogItem({ entry, integration }: { entry: Entry; integration: CalendarIntegration | null }) {
  const kind = kinds[entry.kind] ?? { label: entry.kind, variant: 'outline' as BadgeVariant };
  const first = formatFirmDateTime(entry.firstSeenAt);
  const last = formatFirmDateTime(entry.lastSeenAt);
  // Only the active integration is read: an outage of another one is not known to go on.
  const ongoing = entry.kind === 'unreachable' && !entry.endedAt && integration?.isActive === true;
  return (
    <li className="space-y-1 p-3" data-testid="calendar-notice">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Badge variant={kind.variant}>{kind.label}</Badge>
        <span className="font-medium">{integration ? integrationLabel(integration) : entry.provider}</span>
        {ongoing && <span className="text-muted-foreground">Still not answering</span>}
      </div>
      <p className="break-words">{entry.message}</p>
      <p className="text-xs text-muted-foreground">
        {entry.count > 1 ? (
          <>
            <time dateTime={entry.firstSeenAt}>First {first}</time> · <time dateTime={entry.lastSeenAt}>last {last}</time> · {entry.count} times
          </>
        ) : (
          <time dateTime={entry.firstSeenAt}>{first}</time>
        )}
      </p>
    </li>
  );
}
