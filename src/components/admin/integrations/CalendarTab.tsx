/**
 * Calendar Integrations (SPEC §2, §4 Calendar integration, §7, §8): Add Integration opens the dialog;
 * an Active banner names the active provider, currently syncing appointments; one card per
 * integration with its provider, creation date (firm time), and an Active badge or an Activate
 * button (activating one makes it the only active one). Each card also shows its latest sync
 * deliveries, so an admin can see syncing work or fail; and Rename, Deactivate and Delete (issue 19).
 * Empty: 'No Calendar Integrations'. A Google or Outlook card shows its connection (issue 20,
 * CalendarConnection.tsx); the provider's sign-in comes back here with ?calendar=<outcome>, whose
 * message is shown above the cards, and a new connection opens its calendar picker. Below the cards,
 * the Calendar log (calendars that could not be read for busy times, overlapping bookings).
 */
import { useQueryClient } from '@tanstack/react-query';
import { CalendarX2, CircleAlert, CircleCheck, Pencil, Plus, PowerOff, Trash2, Zap } from 'lucide-react';
import { useEffect, useState } from 'react';
import { connectOutcomes, isConnectOutcome, type ConnectOutcome } from '../../../shared/calendar-connect.ts';
import CalendarConnection, { CalendarPickerDialog } from './CalendarConnection.tsx';
import { ApiError, api, read } from '../../../lib/api-client.ts';
import { adminQueries, useAdminList, useAdminMutation } from '../admin-api.ts';
import { Button } from '../../ui/button.tsx';
import { Badge, Card } from '../../ui/card.tsx';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';
import { ConfirmDialog, Dialog, DialogContent, DialogFooter, DialogTrigger } from '../../ui/dialog.tsx';
import { Field, Input } from '../../ui/form.tsx';
import { useReturnFocus } from '../../ui/return-focus.ts';
import { EmptyState, ListState } from '../../ui/states.tsx';
import CalendarIntegrationDialog, { calendarListKeys } from './CalendarIntegrationDialog.tsx';
import CalendarLog from './CalendarLog.tsx';
import CalendarSettingsDialog from './CalendarSettingsDialog.tsx';
import DeliveryLog from './DeliveryLog.tsx';
import { activeIntegration, calendarProviderLabel, integrationLabel, isDeliveriesKey, prettyConfig, type CalendarIntegration } from './integrations.ts';
import SectionHeader from './SectionHeader.tsx';

const headingId = (id: string) => `calendar-integration-${id}`;

export default function CalendarTab() {
  const list = useAdminList(adminQueries.calendarSettings);
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [outcome, setOutcome] = useState<{ code: ConnectOutcome; integrationId: string | null } | null>(null);
  const [pickingId, setPickingId] = useState<string | null>(null);

  // Back from the provider's sign-in: its outcome once, then a clean address (a reload shows nothing again).
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const code = params.get('calendar');
    if (!isConnectOutcome(code)) return;
    const integrationId = params.get('integration');
    setOutcome({ code, integrationId });
    if (code === 'connected' && integrationId) setPickingId(integrationId);
    window.history.replaceState(null, '', `${window.location.pathname}${window.location.hash}`);
  }, []);

  const activate = useAdminMutation<CalendarIntegration, CalendarIntegration>({
    mutationFn: (row) => read(api.admin['calendar-settings'][':id'].activate.$put({ param: { id: encodeURIComponent(row.id) } })),
    invalidates: calendarListKeys,
    success: 'Calendar integration activated',
    // SPEC §8 gives activation no failure handling; saying that it failed, and why when the server
    // says (a configuration that lacks what its provider needs: 409), is better than silence.
    failure: (err) => (err instanceof ApiError && err.status === 409 && err.details.error ? err.details.error : 'Failed to activate calendar integration'),
    onSuccess: (row) => {
      void queryClient.invalidateQueries({ predicate: (q) => isDeliveriesKey(q.queryKey) });
      // The Activate button that had the focus is gone: keep the keyboard user's place on that card.
      requestAnimationFrame(() => {
        if (document.activeElement && document.activeElement !== document.body) return;
        document.getElementById(headingId(row.id))?.focus();
      });
    },
  });

  const rows = list.data ?? [];
  const active = activeIntegration(rows);
  const picking = rows.find((r) => r.id === pickingId) ?? null;

  return (
    <section aria-labelledby="calendar-integrations-title" className="space-y-4">
      <SectionHeader
        id="calendar-integrations-title"
        title="Calendar Integrations"
        description="Consultations booked, changed or cancelled on the website are sent to the active integration’s calendar."
        action={
          <CalendarIntegrationDialog
            open={adding}
            onOpenChange={setAdding}
            trigger={
              <Button>
                <Plus aria-hidden="true" className="size-4" />
                Add Integration
              </Button>
            }
          />
        }
      />
      {outcome && (
        <div
          role={outcome.code === 'connected' ? 'status' : 'alert'}
          data-testid="calendar-connect-outcome"
          className={`flex items-start gap-3 rounded-lg border-2 bg-card p-4 ${outcome.code === 'connected' ? 'border-emerald-700 dark:border-emerald-500' : 'border-destructive'}`}
        >
          {outcome.code === 'connected' ? (
            <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-700 dark:text-emerald-400" />
          ) : (
            <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-destructive" />
          )}
          <p>
            {rows.find((r) => r.id === outcome.integrationId) && (
              <span className="font-semibold">{integrationLabel(rows.find((r) => r.id === outcome.integrationId)!)}: </span>
            )}
            {connectOutcomes[outcome.code]}
          </p>
        </div>
      )}
      <CalendarPickerDialog row={picking} onClose={() => setPickingId(null)} />
      {active && (
        <div data-testid="active-calendar-banner" className="flex items-start gap-3 rounded-lg border-2 border-emerald-700 bg-card p-4 dark:border-emerald-500">
          <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-700 dark:text-emerald-400" />
          <p>
            <span className="font-semibold">Active: {integrationLabel(active)}</span>
            <span className="block text-sm text-muted-foreground">{integrationLabel(active)} is currently syncing appointments.</span>
          </p>
        </div>
      )}
      {!active && rows.length > 0 && (
        <p className="rounded-lg border border-dashed border-border p-4 text-sm text-muted-foreground">
          No integration is active, so appointments are not synced. Activate one below.
        </p>
      )}
      <ListState
        query={list}
        what="calendar integrations"
        empty={
          <EmptyState
            icon={CalendarX2}
            title="No Calendar Integrations"
            description="Add an integration to send consultations booked on the website to Google Calendar, Outlook or your own webhook, or to take bookings from Calendly."
          />
        }
      >
        {(integrations) => (
          <ul className="grid gap-4 lg:grid-cols-2" aria-label="Calendar integrations">
            {integrations.map((row) => (
              <IntegrationCard
                key={row.id}
                row={row}
                activating={activate.isPending && activate.variables?.id === row.id}
                busy={activate.isPending}
                onActivate={() => activate.mutate(row)}
                onChangeCalendar={() => setPickingId(row.id)}
              />
            ))}
          </ul>
        )}
      </ListState>
      <CalendarLog integrations={rows} />
    </section>
  );
}

function IntegrationCard({
  row,
  activating,
  busy,
  onActivate,
  onChangeCalendar,
}: {
  row: CalendarIntegration;
  activating: boolean;
  busy: boolean;
  onActivate: () => void;
  onChangeCalendar: () => void;
}) {
  const label = integrationLabel(row);
  const added = formatFirmDateTime(row.createdAt);
  return (
    <li>
      <Card className="flex h-full flex-col gap-3 p-4 sm:p-5" data-testid="calendar-integration" data-integration-id={row.id}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h3
              id={headingId(row.id)}
              tabIndex={-1}
              className="rounded-sm text-base font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            >
              {label}
            </h3>
            <p className="text-sm text-muted-foreground">
              {row.name && <>{calendarProviderLabel(row.provider)} · </>}
              Added <time dateTime={row.createdAt}>{added}</time>
            </p>
          </div>
          {row.isActive ? (
            <Badge variant="success">Active</Badge>
          ) : (
            <Button variant="outline" size="sm" className="h-10" disabled={busy} aria-busy={activating || undefined} onClick={onActivate}>
              <Zap aria-hidden="true" className="size-4" />
              {activating ? 'Activating...' : 'Activate'}
              <span className="sr-only">
                {' '}
                {label} integration added {added}
              </span>
            </Button>
          )}
        </div>
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-medium text-muted-foreground">Webhook URL</dt>
          <dd className="min-w-0 break-all">{row.webhookUrl ?? 'Not set'}</dd>
          <dt className="font-medium text-muted-foreground">API Key</dt>
          <dd className="min-w-0 break-all" data-testid="api-key">
            {row.apiKey ?? 'Not set'}
          </dd>
        </dl>
        {row.config && (
          <details className="text-sm">
            <summary className="inline-flex min-h-6 cursor-pointer items-center rounded-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring">
              Configuration (secrets hidden)
            </summary>
            <pre className="mt-2 whitespace-pre-wrap break-all rounded-md bg-muted p-3 font-mono text-xs">{prettyConfig(row.config)}</pre>
          </details>
        )}
        <CalendarConnection row={row} label={label} busy={busy} onChangeCalendar={onChangeCalendar} />
        <IntegrationActions row={row} label={label} busy={busy} />
        <div className="border-t border-border pt-3">
          {row.provider === 'calendly' ? (
            // Calendly is inbound only (api/calendar-sync/calendly.ts): nothing is delivered to it.
            <p className="text-sm text-muted-foreground">
              Calendly is inbound only: bookings made at Calendly arrive here by webhook while it is active; nothing is sent to Calendly.
            </p>
          ) : (
            <DeliveryLog
              channel="calendar"
              integrationId={row.id}
              limit={5}
              title="Latest sync deliveries"
              context={`for ${label} added ${added}`}
              headingLevel="h4"
              empty={
                row.isActive
                  ? 'Nothing synced yet: the next booking, change or cancellation is sent here.'
                  : 'Nothing synced: an integration syncs only while it is active.'
              }
            />
          )}
        </div>
      </Card>
    </li>
  );
}

/**
 * Issue 19: Rename (a name to tell two of one provider apart), Edit Settings (a new configuration),
 * Deactivate (syncing stops; no integration is active) and Delete (after confirming; its sealed
 * secrets go with it).
 */
function IntegrationActions({ row, label, busy }: { row: CalendarIntegration; label: string; busy: boolean }) {
  const queryClient = useQueryClient();
  const param = { param: { id: encodeURIComponent(row.id) } };
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(row.name ?? '');
  const [nameError, setNameError] = useState<string | undefined>();
  const [deleting, setDeleting] = useState(false);
  const deleteFocus = useReturnFocus();
  const refreshLogs = () => void queryClient.invalidateQueries({ predicate: (q) => isDeliveriesKey(q.queryKey) });
  const rename = useAdminMutation<string, CalendarIntegration>({
    mutationFn: (next) => read(api.admin['calendar-settings'][':id'].$put({ ...param, json: { name: next } })),
    invalidates: calendarListKeys,
    success: 'Calendar integration renamed',
    failure: (error) => (error instanceof ApiError && error.details.fields?.name) || 'Failed to rename calendar integration',
    onSuccess: () => setRenaming(false),
  });
  const deactivate = useAdminMutation({
    mutationFn: () => read(api.admin['calendar-settings'][':id'].deactivate.$put(param)),
    invalidates: calendarListKeys,
    success: `${label} deactivated: appointments are not synced until an integration is active`,
    failure: 'Failed to deactivate calendar integration',
    onSuccess: refreshLogs,
  });
  const remove = useAdminMutation({
    mutationFn: () => read(api.admin['calendar-settings'][':id'].$delete(param)),
    invalidates: calendarListKeys,
    success: 'Calendar integration deleted',
    // A connected one is refused with what to do first (Disconnect): the server's words say so.
    failure: (error) => (error instanceof ApiError && error.details.error) || 'Failed to delete calendar integration',
  });
  const sr = <span className="sr-only"> {label}</span>;
  return (
    <div className="flex flex-wrap gap-2">
      <Dialog
        open={renaming}
        onOpenChange={(open) => {
          setRenaming(open);
          if (open) {
            setName(row.name ?? '');
            setNameError(undefined);
          }
        }}
      >
        <DialogTrigger asChild>
          <Button variant="outline" size="sm" className="h-10" disabled={busy}>
            <Pencil aria-hidden="true" className="size-4" />
            Rename{sr}
          </Button>
        </DialogTrigger>
        <DialogContent
          title="Rename calendar integration"
          description={`A name tells it apart from another ${calendarProviderLabel(row.provider)} integration.`}
        >
          <form
            noValidate
            className="grid gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              if (name.trim().length > 80) {
                setNameError('Name must be at most 80 characters');
                return;
              }
              setNameError(undefined);
              rename.mutate(name.trim());
            }}
          >
            <Field label="Name" optional error={nameError} hint={`Blank: shown as “${calendarProviderLabel(row.provider)}”.`}>
              <Input autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />
            </Field>
            <DialogFooter action="Save Name" pending={rename.isPending} error={rename.error} failure="The name was not saved" />
          </form>
        </DialogContent>
      </Dialog>
      <CalendarSettingsDialog row={row} label={label} busy={busy} />
      {row.isActive && (
        <Button variant="outline" size="sm" className="h-10" disabled={busy || deactivate.isPending} onClick={() => deactivate.mutate()}>
          <PowerOff aria-hidden="true" className="size-4" />
          {deactivate.isPending ? 'Deactivating...' : 'Deactivate'}
          {sr}
        </Button>
      )}
      <Button
        variant="outline"
        size="sm"
        className="h-10 text-destructive"
        disabled={busy}
        onClick={(e) => {
          deleteFocus.remember(e.currentTarget);
          setDeleting(true);
        }}
      >
        <Trash2 aria-hidden="true" className="size-4" />
        Delete{sr}
      </Button>
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="Delete this calendar integration?"
        description={`${label} is removed with its saved credentials${row.isActive ? ', and appointments stop syncing until another integration is active' : ''}. Events it already put in the calendar stay there. This cannot be undone.`}
        confirmLabel="Delete Integration"
        pending={remove.isPending}
        onConfirm={() => remove.mutate(undefined, { onSettled: () => setDeleting(false) })}
        onCloseAutoFocus={(event) => deleteFocus.restore(event, () => document.getElementById('calendar-integrations-title'))}
      />
    </div>
  );
}
