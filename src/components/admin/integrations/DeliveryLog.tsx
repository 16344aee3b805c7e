/**
 * The latest deliveries of a channel (GET /api/admin/deliveries: calendar events sent to an
 * integration, e-mails sent), so an admin sees syncing and sending work or fail: status in words,
 * what it was for, where it went, attempts, the last error, and when. The log has no payload and the
 * server masks secrets in it. Lists load once (SPEC §7: never stale); Refresh reloads.
 */
import { useQuery } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { Button } from '../../ui/button.tsx';
import { Badge, type BadgeVariant } from '../../ui/card.tsx';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';
import { attemptsText, deliveriesQuery, deliveryStatusLabel, purposeLabel, type DeliveryLogEntry } from './integrations.ts';

const statusVariants: Record<string, BadgeVariant> = {
  sent: 'success',
  held: 'warning',
  pending: 'warning',
  sending: 'warning',
  failed: 'destructive',
  skipped: 'secondary',
};

export default function DeliveryLog({
  channel,
  integrationId,
  limit,
  title,
  context,
  empty,
  headingLevel = 'h3',
}: {
  channel: 'email' | 'calendar';
  integrationId?: string;
  limit: number;
  title: string;
  /** Said to screen readers after Refresh, when several logs are on the screen ('for Google Calendar'). */
  context?: string;
  empty: string;
  headingLevel?: 'h3' | 'h4';
}) {
  const query = useQuery(deliveriesQuery({ channel, integrationId, limit }));
  const Heading = headingLevel;
  return (
    <div className="space-y-2" data-testid={`deliveries-${channel}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading className="text-sm font-semibold">{title}</Heading>
        <Button variant="ghost" size="sm" className="h-10" disabled={query.isFetching} onClick={() => void query.refetch()}>
          <RefreshCw aria-hidden="true" className={`size-4 ${query.isFetching ? 'motion-safe:animate-spin' : ''}`} />
          {query.isFetching ? 'Refreshing...' : 'Refresh'}
          {context && <span className="sr-only"> {context}</span>}
        </Button>
      </div>
      {query.isPending ? (
        <p className="text-sm text-muted-foreground">Loading deliveries...</p>
      ) : query.isError ? (
        <p role="alert" className="text-sm text-destructive">
          The delivery log could not be loaded.
        </p>
      ) : query.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ul className="divide-y divide-border rounded-md border border-border text-sm">
          {query.data.map((d) => (
            <DeliveryItem key={d.id} entry={d} />
          ))}
        </ul>
      )}
    </div>
  );
}

function DeliveryItem({ entry: d }: { entry: DeliveryLogEntry }) {
  const attempts = attemptsText(d);
  const when = d.sentAt ? `Sent ${formatFirmDateTime(d.sentAt)}` : `Queued ${formatFirmDateTime(d.createdAt)}`;
  const retry = d.status === 'pending' && d.attempts > 0 ? `Next attempt ${formatFirmDateTime(d.nextAttemptAt)}` : null;
  return (
    <li className="space-y-1 p-3" data-testid="delivery">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Badge variant={statusVariants[d.status] ?? 'outline'}>{deliveryStatusLabel(d.status)}</Badge>
        <span className="font-medium">{purposeLabel(d.purpose)}</span>
        {d.recipient && <span className="min-w-0 text-muted-foreground [overflow-wrap:anywhere]">to {d.recipient}</span>}
      </div>
      <p className="text-xs text-muted-foreground">
        <time dateTime={d.sentAt ?? d.createdAt}>{when}</time>
        {attempts && <> · {attempts}</>}
        {retry && <> · {retry}</>}
      </p>
      {d.lastError && (
        <p className="break-words text-xs">
          {/* A skipped delivery's text is why it was not sent, not an error. */}
          <span className="font-semibold">{d.status === 'skipped' ? 'Reason:' : 'Last error:'}</span> {d.lastError}
        </p>
      )}
    </li>
  );
}
