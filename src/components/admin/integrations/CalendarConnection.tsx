/**
 * Connect with Google / Microsoft 365 (issue 20) on a Google or Outlook card: the connection's state
 * (not connected, the account and calendar, or needs reconnecting with the provider's reason), the
 * Connect button (the browser goes to the provider's consent page and comes back to this screen),
 * Change calendar (the picker) and Disconnect, whose answer says honestly whether the provider
 * revoked the access and where the user removes it otherwise.
 */
import { useQuery } from '@tanstack/react-query';
import { CalendarCheck, Link2, Link2Off, RefreshCw, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { ApiError, api, read } from '../../../lib/api-client.ts';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';
import { useAdminMutation } from '../admin-api.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog, Dialog, DialogContent, DialogFooter } from '../../ui/dialog.tsx';
import { FieldError } from '../../ui/form.tsx';
import { LoadingState } from '../../ui/states.tsx';
import { calendarListKeys } from './CalendarIntegrationDialog.tsx';
import type { CalendarIntegration } from './integrations.ts';

type Connection = NonNullable<CalendarIntegration['connection']>;

const providerOf = (row: CalendarIntegration) => (row.provider === 'google' ? 'Google' : 'Microsoft 365');
const connectLabel = (row: CalendarIntegration) => `Connect with ${providerOf(row)}`;

/** What Disconnect did, said plainly (with where to remove the access when the site could not). */
function disconnectNotice(result: { provider: string; revoked: boolean | null; deactivated: boolean; accessPage: string }) {
  const stopped = result.deactivated ? ' Syncing stopped: connect it again and activate it to sync.' : '';
  if (result.provider === 'google' && result.revoked)
    return { text: `Disconnected. Google revoked this site’s access and the token was removed from this site.${stopped}`, link: null };
  if (result.provider === 'google')
    return {
      text: `Disconnected here: the token was removed from this site, but Google could not be reached to revoke it. Remove the site’s access in your Google Account:${stopped}`,
      link: result.accessPage,
    };
  return {
    text: `Disconnected here: the token was removed from this site. Microsoft offers no way for an app to revoke it; remove the app’s access in your Microsoft account (Apps):${stopped}`,
    link: result.accessPage,
  };
}

export default function CalendarConnection({
  row,
  label,
  busy,
  onChangeCalendar,
}: {
  row: CalendarIntegration;
  label: string;
  busy: boolean;
  onChangeCalendar: () => void;
}) {
  const connection = row.connection;
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<{ text: string; link: string | null } | null>(null);
  const param = { param: { id: encodeURIComponent(row.id) } };
  const begin = useAdminMutation<void, { authorizationUrl: string }>({
    mutationFn: () => read(api.admin['calendar-settings'][':id'].connect.$post(param)),
    invalidates: [],
    failure: (err) => (err instanceof ApiError && err.status === 409 && err.details.error ? err.details.error : `Could not start connecting ${label}`),
    // The provider's consent page; it sends the browser back to this screen.
    onSuccess: ({ authorizationUrl }) => window.location.assign(authorizationUrl),
  });
  const disconnect = useAdminMutation({
    mutationFn: () => read(api.admin['calendar-settings'][':id'].disconnect.$post(param)),
    invalidates: calendarListKeys,
    failure: `Failed to disconnect ${label}`,
    onSuccess: (result) => setNotice(disconnectNotice(result)),
  });
  if (!connection) return null;
  const sr = <span className="sr-only"> {label}</span>;
  const connectButton = (text: string, Icon = Link2) => (
    <Button size="sm" className="h-10" disabled={busy || begin.isPending} aria-busy={begin.isPending || undefined} onClick={() => begin.mutate()}>
      <Icon aria-hidden="true" className="size-4" />
      {begin.isPending ? 'Opening sign-in...' : text}
      {sr}
    </Button>
  );
  return (
    <section className="grid gap-2 rounded-md border border-border p-3 text-sm" aria-label={`${label} connection`} data-testid="calendar-connection">
      {connection.needsReconnect ? (
        <NeedsReconnecting connection={connection} provider={providerOf(row)} />
      ) : connection.connected ? (
        <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
          <dt className="font-medium text-muted-foreground">Connected account</dt>
          <dd className="min-w-0 break-all" data-testid="connected-account">
            {connection.accountEmail ?? 'Connected (the account’s address is not known: the token was entered by hand)'}
          </dd>
          <dt className="font-medium text-muted-foreground">Calendar</dt>
          <dd className="min-w-0 break-all" data-testid="connected-calendar">
            {connection.calendarName ?? 'Not chosen: appointments go to the account’s main calendar'}
          </dd>
        </dl>
      ) : (
        <p className="text-muted-foreground">Not connected. Sign in with the firm’s {providerOf(row)} account to let the site use its calendar.</p>
      )}
      <div className="flex flex-wrap gap-2">
        {connection.needsReconnect ? connectButton('Reconnect', RefreshCw) : !connection.connected && connectButton(connectLabel(row))}
        {connection.connected && !connection.needsReconnect && (
          <Button variant="outline" size="sm" className="h-10" disabled={busy} onClick={onChangeCalendar}>
            <CalendarCheck aria-hidden="true" className="size-4" />
            Change calendar{sr}
          </Button>
        )}
        {connection.connected && (
          <Button variant="outline" size="sm" className="h-10" disabled={busy || disconnect.isPending} onClick={() => setConfirming(true)}>
            <Link2Off aria-hidden="true" className="size-4" />
            Disconnect{sr}
          </Button>
        )}
      </div>
      {notice && (
        <p role="status" className="rounded-md bg-muted p-2" data-testid="disconnect-notice">
          {notice.text}{' '}
          {notice.link && (
            <a className="font-medium underline underline-offset-2" href={notice.link} target="_blank" rel="noopener noreferrer">
              {notice.link}
            </a>
          )}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Disconnect the ${providerOf(row)} account?`}
        description={`The site forgets ${connection.accountEmail ?? 'the account'}’s access${row.provider === 'google' ? ' and asks Google to revoke it' : ''}.${row.isActive ? ' Appointments stop syncing until it is connected and activated again.' : ''} Events already in the calendar stay there.`}
        confirmLabel="Disconnect"
        pendingLabel="Disconnecting..."
        pending={disconnect.isPending}
        onConfirm={() => disconnect.mutate(undefined, { onSettled: () => setConfirming(false) })}
      />
    </section>
  );
}

function NeedsReconnecting({ connection, provider }: { connection: Connection; provider: string }) {
  const since = connection.needsReconnect!;
  return (
    <div className="flex items-start gap-2" data-testid="needs-reconnecting">
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-amber-400" />
      <p>
        <span className="font-semibold">Needs reconnecting</span>
        <span className="block text-muted-foreground">
          {provider} refused the connection on <time dateTime={since.at}>{formatFirmDateTime(since.at)}</time>: {since.reason.replace(/\.$/, '')}. Its access
          was revoked or has expired, so appointments cannot be synced until {connection.accountEmail ?? 'the account'} signs in again.
        </span>
      </p>
    </div>
  );
}

/** The connected account's writable calendars; appointments go to the one chosen. */
export function CalendarPickerDialog({ row, onClose }: { row: CalendarIntegration | null; onClose: () => void }) {
  const id = row?.id ?? '';
  const calendars = useQuery({
    queryKey: ['/api/admin/calendar-settings', id, 'calendars'],
    queryFn: () => read(api.admin['calendar-settings'][':id'].calendars.$get({ param: { id: encodeURIComponent(id) } })),
    enabled: row !== null,
    retry: false,
    staleTime: 0,
  });
  const [choice, setChoice] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const save = useAdminMutation<string, { calendarName: string }>({
    mutationFn: (calendarId) => read(api.admin['calendar-settings'][':id'].calendar.$put({ param: { id: encodeURIComponent(id) }, json: { calendarId } })),
    invalidates: calendarListKeys,
    success: (saved) => `Appointments now go to ${saved.calendarName}`,
    failure: 'Failed to choose the calendar',
    onSuccess: onClose,
  });
  const selected = choice ?? calendars.data?.selected ?? null;
  const loadError = calendars.error instanceof ApiError && calendars.error.details.error ? calendars.error.details.error : 'The calendars could not be loaded.';
  return (
    <Dialog
      open={row !== null}
      onOpenChange={(open) => {
        if (open) return;
        setChoice(null);
        setError(undefined);
        save.reset();
        onClose();
      }}
    >
      {row && (
        <DialogContent title="Choose the calendar" description="Consultations booked on the website are added to this calendar of the connected account.">
          <form
            noValidate
            className="grid gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              if (!selected) {
                setError('Choose a calendar');
                return;
              }
              setError(undefined);
              save.mutate(selected);
            }}
          >
            {calendars.isPending ? (
              <LoadingState label="Loading calendars..." />
            ) : calendars.isError ? (
              <p role="alert" className="text-sm text-destructive">
                {loadError}
              </p>
            ) : calendars.data.calendars.length === 0 ? (
              <p className="text-sm">The connected account has no calendar it may add events to.</p>
            ) : (
              <fieldset className="grid gap-2" aria-describedby={error ? 'calendar-choice-error' : undefined}>
                <legend className="mb-1 text-sm font-medium">Calendars you can add events to</legend>
                {calendars.data.calendars.map((calendar) => (
                  <label key={calendar.id} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-border px-3 py-2 text-sm">
                    <input
                      type="radio"
                      name="calendar"
                      className="size-4 accent-primary"
                      value={calendar.id}
                      checked={selected === calendar.id}
                      onChange={() => setChoice(calendar.id)}
                    />
                    <span className="min-w-0 break-all">
                      {calendar.name}
                      {calendar.primary && <span className="text-muted-foreground"> (main calendar)</span>}
                    </span>
                  </label>
                ))}
                <FieldError id="calendar-choice-error" message={error} />
              </fieldset>
            )}
            <DialogFooter action="Use This Calendar" pending={save.isPending} error={save.error} failure="The calendar was not chosen" />
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}
