/**
 * The development outbox (GET /api/admin/email-outbox): while no email integration is configured,
 * every message the site would have sent is kept there, so an admin can read what a client or the
 * firm would have received. Newest first; the ten latest unless asked for all. Above them, how many
 * are held in all and since when (GET /api/admin/email-outbox/summary): the store is the site's
 * database, sealed, and bounded in days and in count (decision 042).
 */
import { useQuery } from '@tanstack/react-query';
import { Inbox, Paperclip, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';
import { heldMailText, integrationQueries, newestFirst } from './integrations.ts';

const SHOWN = 10;

export default function DevOutbox() {
  const query = useQuery(integrationQueries.emailOutbox);
  const summary = useQuery(integrationQueries.emailOutboxSummary);
  const [showAll, setShowAll] = useState(false);
  const messages = newestFirst(query.data ?? []);
  const shown = showAll ? messages : messages.slice(0, SHOWN);

  return (
    <Card className="space-y-3 p-4 sm:p-5" data-testid="dev-outbox">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="flex items-center gap-2 text-base font-semibold">
            <Inbox aria-hidden="true" className="size-5 shrink-0" />
            Development outbox
          </h3>
          <p className="text-sm text-muted-foreground" data-testid="held-mail-summary">
            Mail kept while email is not configured
            {summary.data
              ? `: ${heldMailText(summary.data, new Date()) ?? 'none now'}`
              : query.data
                ? `: ${messages.length} message${messages.length === 1 ? '' : 's'}`
                : ''}
            .
          </p>
          {summary.data && (
            <p className="text-xs text-muted-foreground">
              Sealed in the site’s database, where every server reads it; each message is deleted {summary.data.keptDays} days after it was held, and only the
              latest {summary.data.maxMessages.toLocaleString('en-US')} are kept.
            </p>
          )}
        </div>
        <Button
          variant="ghost"
          size="sm"
          className="h-10"
          disabled={query.isFetching}
          onClick={() => {
            void query.refetch();
            void summary.refetch();
          }}
        >
          <RefreshCw aria-hidden="true" className={`size-4 ${query.isFetching ? 'motion-safe:animate-spin' : ''}`} />
          {query.isFetching ? 'Refreshing...' : 'Refresh'}
          <span className="sr-only"> outbox</span>
        </Button>
      </div>
      {query.isPending ? (
        <p className="text-sm text-muted-foreground">Loading the outbox...</p>
      ) : query.isError ? (
        <p role="alert" className="text-sm text-destructive">
          The outbox could not be loaded.
        </p>
      ) : messages.length === 0 ? (
        <p className="text-sm text-muted-foreground">The outbox is empty.</p>
      ) : (
        <>
          <ul className="divide-y divide-border rounded-md border border-border">
            {shown.map((m, i) => (
              <li key={m.id ?? `${m.createdAt}-${i}`} className="space-y-1 p-3 text-sm" data-testid="outbox-message">
                <p className="break-words font-medium">{m.subject || '(no subject)'}</p>
                <p className="break-all text-muted-foreground">
                  To {m.to} · <time dateTime={m.createdAt}>{formatFirmDateTime(m.createdAt)}</time>
                </p>
                {m.attachments && m.attachments.length > 0 && (
                  <p className="flex flex-wrap items-center gap-1 text-muted-foreground">
                    <Paperclip aria-hidden="true" className="size-4" />
                    <span className="sr-only">Attachments:</span>
                    {m.attachments.map((a) => `${a.filename} (${a.contentType})`).join(', ')}
                  </p>
                )}
                <details>
                  <summary className="inline-flex min-h-6 cursor-pointer items-center rounded-sm font-medium text-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring">
                    Read message<span className="sr-only">: {m.subject}</span>
                  </summary>
                  <pre
                    tabIndex={0}
                    className="mt-2 max-h-80 overflow-auto whitespace-pre-wrap break-words rounded-md bg-muted p-3 font-sans text-sm focus-visible:outline-2 focus-visible:outline-ring"
                  >
                    {m.text}
                  </pre>
                </details>
              </li>
            ))}
          </ul>
          {messages.length > SHOWN && (
            <Button variant="outline" size="sm" className="h-10" onClick={() => setShowAll((v) => !v)}>
              {showAll ? `Show the ${SHOWN} latest` : `Show all ${messages.length} messages`}
            </Button>
          )}
        </>
      )}
    </Card>
  );
}
