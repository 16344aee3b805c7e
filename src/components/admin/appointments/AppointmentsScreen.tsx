/**
 * /admin/appointments (SPEC §2): consultations booked through the website. Four count cards (one per
 * status: what waits for the firm to confirm, what is on the calendar, what was held, what was called
 * off; the total is their sum and heads the list), a status filter, the list with upcoming
 * appointments first, and a details dialog. SPEC §4 Appointment status: Confirm only while scheduled,
 * the status dropdown only while neither completed nor cancelled; delete asks first. Times are the
 * firm's (America/Los_Angeles) with the zone shown, whatever the zone of the admin's browser.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarX2, Check, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, api, read } from '../../../lib/api-client.ts';
import type { AppointmentStatus } from '../../../shared/constants.ts';
import AdminPage from '../AdminPage.tsx';
import { adminQueries, adminKeys, useAdminList, useAdminMutation } from '../admin-api.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { ConfirmDialog } from '../../ui/dialog.tsx';
import { FIRM_TIME_ZONE_LABEL, firmToday, formatFirmDate, formatFirmDateTime, formatFirmTimeRange } from '../../../shared/firm-time.ts';
import { Field, Input, Select } from '../../ui/form.tsx';
import { useReturnFocus } from '../../ui/return-focus.ts';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states.tsx';
import AppointmentDetailsDialog from './AppointmentDetailsDialog.tsx';
import AppointmentStatusBadge from './AppointmentStatusBadge.tsx';
import {
  canChangeStatus,
  canComplete,
  clientNotice,
  canConfirm,
  consultationTypeLabel,
  countByStatus,
  appointmentFiltersFromSearch,
  appointmentFiltersToSearch,
  filterAppointments,
  hasAppointmentFilters,
  noAppointmentFilters,
  type AppointmentFilters,
  fullName,
  isTerminal,
  practiceAreaLabel,
  splitUpcoming,
  statusLabels,
  statusMeaning,
  statusOrder,
  type Appointment,
  type StatusFilter,
} from './appointments.ts';
import FinalStatusDialog, { type FinalStatusTarget } from './FinalStatusDialog.tsx';
import StatusMenu from './StatusMenu.tsx';
import DayView from './DayView.tsx';
import WeekView from './WeekView.tsx';
import { integrationQueries } from '../integrations/integrations.ts';

const viewLabels = { list: 'List', week: 'Week', day: 'Day' } as const;

const appointmentParam = (id: string) => ({ id: encodeURIComponent(id) });

/** The server's reason when it refuses a change (409: already final, or changed at the same moment). */
function refusal(error: Error): string | null {
  return error instanceof ApiError && error.status === 409 ? (error.details.error ?? null) : null;
}

/** A 404 or 409 means the list on screen is out of date: someone else changed or deleted the row. */
const isStale = (error: Error) => error instanceof ApiError && (error.status === 404 || error.status === 409);

export default function AppointmentsScreen() {
  const list = useAdminList(adminQueries.appointments);
  const queryClient = useQueryClient();
  // Whether the client's e-mail about a change goes out or is held: the dialogs say which.
  const activeEmail = useQuery(integrationQueries.activeEmail);
  const emailConfigured = activeEmail.isSuccess ? Boolean(activeEmail.data?.isActive) : undefined;
  const [filters, setFilters] = useState<AppointmentFilters>(() => appointmentFiltersFromSearch(window.location.search));
  const filter = filters.status;
  const update = (changes: Partial<AppointmentFilters>) => setFilters((f) => ({ ...f, ...changes }));
  const [openId, setOpenId] = useState<string | null>(null);
  // List (upcoming, then past), Week or Day (issue 19); the day shown, or the week that holds it.
  const [view, setView] = useState<'list' | 'week' | 'day'>('list');
  const [shownDay, setShownDay] = useState(() => firmToday(new Date()));
  const [finalTarget, setFinalTarget] = useState<FinalStatusTarget | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<Appointment | null>(null);
  const listHeadingRef = useRef<HTMLHeadingElement>(null);
  const justDeleted = useRef(false);
  // Each dialog opens from state, not from a trigger: give the focus back to what opened it.
  const detailsFocus = useReturnFocus();
  const finalFocus = useReturnFocus();
  const deleteFocus = useReturnFocus();
  const lastOpened = useRef<string | null>(null);
  const rowButton = (id: string | null) => (id ? document.querySelector<HTMLElement>(`[data-details-for="${CSS.escape(id)}"]`) : null);
  /** Where the focus goes when a dialog's opener is gone: the open details dialog's Close, else the row's View Details, else the list. */
  const fallbackFor = (id: string) => document.querySelector<HTMLElement>('[data-details-close]') ?? rowButton(id) ?? listHeadingRef.current;
  const deleteTargetRef = useRef<string | null>(null);
  const finalTargetRef = useRef<string | null>(null);

  function openDetails(a: Appointment, opener: HTMLElement) {
    detailsFocus.remember(opener);
    lastOpened.current = a.id;
    setOpenId(a.id);
  }

  function askDelete(a: Appointment, opener: HTMLElement) {
    deleteFocus.remember(opener);
    deleteTargetRef.current = a.id;
    setDeleteTarget(a);
  }

  useEffect(() => {
    const { pathname, hash } = window.location;
    window.history.replaceState(window.history.state, '', `${pathname}${appointmentFiltersToSearch(filters)}${hash}`);
  }, [filters]);

  // Confirm or the dropdown disappear once the status moved on: keep the keyboard user's place on
  // the same appointment's View Details. Tried on the next frame, and again once the reloaded list
  // is on screen (the query cache hands React its data a tick after the fetch resolves, so the
  // button that had the focus may still be there at that frame).
  const pendingFocus = useRef<string | null>(null);
  const focusDetails = useCallback((id: string) => {
    if (document.activeElement && document.activeElement !== document.body) return false;
    document.querySelector<HTMLElement>(`[data-details-for="${CSS.escape(id)}"]`)?.focus();
    return true;
  }, []);
  const keepFocusOn = useCallback(
    (id: string) => {
      pendingFocus.current = id;
      requestAnimationFrame(() => {
        if (pendingFocus.current === id && focusDetails(id)) pendingFocus.current = null;
      });
    },
    [focusDetails],
  );
  useEffect(() => {
    const id = pendingFocus.current;
    if (!list.data || !id) return;
    pendingFocus.current = null;
    focusDetails(id);
  }, [list.data, focusDetails]);

  // The list shows the real state again; a button that no longer applies goes, the focus stays on the row.
  const refetchIfStale = (error: Error, id: string) => {
    if (isStale(error)) void queryClient.invalidateQueries({ queryKey: adminKeys.appointments }).then(() => keepFocusOn(id));
  };

  const updateStatus = useAdminMutation<{ id: string; status: AppointmentStatus; reason?: string }, Appointment>({
    mutationFn: ({ id, status, reason }) =>
      read(api.admin.appointments[':id'].$put({ param: appointmentParam(id), json: { status, ...(reason ? { reason } : {}) } })),
    invalidates: [adminKeys.appointments],
    success: 'Appointment status updated successfully',
    failure: (error) => {
      const reason = refusal(error);
      return reason ? `Failed to update appointment. ${reason}` : 'Failed to update appointment';
    },
    onSuccess: (_row, { id }) => {
      setFinalTarget(null);
      keepFocusOn(id);
    },
  });

  const remove = useAdminMutation<string>({
    mutationFn: async (id) => {
      await read(api.admin.appointments[':id'].$delete({ param: appointmentParam(id) }));
      justDeleted.current = true;
    },
    invalidates: [adminKeys.appointments],
    success: 'Appointment deleted successfully',
    failure: 'Failed to delete appointment',
    onSuccess: (_result, id) => {
      setDeleteTarget(null);
      setOpenId((current) => (current === id ? null : current));
    },
  });

  function changeStatus(a: Appointment, status: AppointmentStatus, opener: HTMLElement | null) {
    if (isTerminal(status)) {
      finalFocus.remember(opener);
      finalTargetRef.current = a.id;
      setFinalTarget({ appointment: a, status });
    } else sendStatus(a.id, status);
  }

  function sendStatus(id: string, status: AppointmentStatus, reason?: string) {
    updateStatus.mutate(
      { id, status, reason },
      {
        onError: (error) => {
          setFinalTarget(null);
          refetchIfStale(error, id);
        },
      },
    );
  }

  // While a status change runs, that appointment's actions wait. (A delete runs behind its modal
  // confirmation, so nothing else can be pressed meanwhile; its Delete button stays enabled to take the
  // focus back if the delete fails.)
  const busyId = updateStatus.isPending ? updateStatus.variables?.id : undefined;
  const rows = list.data ?? [];
  const open = rows.find((a) => a.id === openId) ?? null;

  let body;
  if (list.isPending) body = <LoadingState />;
  else if (list.isError) body = <ErrorState message="The appointments could not be loaded." onRetry={() => void list.refetch()} />;
  else {
    const counts = countByStatus(rows);
    const shown = filterAppointments(rows, filters);
    const onlyStatus = !hasAppointmentFilters({ ...filters, status: 'all' });
    const { upcoming, past } = splitUpcoming(shown, new Date());
    const item = (a: Appointment) => (
      <AppointmentItem
        key={a.id}
        appointment={a}
        busy={busyId === a.id}
        onOpen={(opener) => openDetails(a, opener)}
        onStatusChange={(status, opener) => changeStatus(a, status, opener)}
        onDelete={(opener) => askDelete(a, opener)}
      />
    );
    body = (
      <>
        <ul aria-label="Appointments by status" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          {statusOrder.map((status) => (
            <li key={status}>
              <Card className="h-full p-4" data-testid={`count-${status}`}>
                <p className="text-sm font-medium text-muted-foreground">{statusLabels[status]}</p>
                <p className="mt-1 text-3xl font-bold tabular-nums">{counts[status]}</p>
                <p className="mt-1 text-xs text-muted-foreground">{statusMeaning[status]}</p>
              </Card>
            </li>
          ))}
        </ul>

        <div className="flex flex-wrap items-end justify-between gap-x-6 gap-y-3">
          <form
            role="search"
            aria-label="Filter appointments"
            className="grid w-full gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr]"
            onSubmit={(e) => e.preventDefault()}
          >
            <Field label="Search" hint="Name, email, phone or booking reference">
              <Input type="search" autoComplete="off" value={filters.search} onChange={(e) => update({ search: e.target.value })} />
            </Field>
            <Field label="Status">
              <Select value={filter} onChange={(e) => update({ status: e.target.value as StatusFilter })}>
                <option value="all">All statuses</option>
                {statusOrder.map((s) => (
                  <option key={s} value={s}>
                    {statusLabels[s]}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="From">
              <Input type="date" value={filters.from} max={filters.to || undefined} onChange={(e) => update({ from: e.target.value })} />
            </Field>
            <Field label="To">
              <Input type="date" value={filters.to} min={filters.from || undefined} onChange={(e) => update({ to: e.target.value })} />
            </Field>
          </form>
          <div className="flex w-full flex-wrap items-center justify-between gap-2">
            <div role="group" aria-label="Show as" className="inline-flex rounded-md border border-border p-0.5">
              {(['list', 'week', 'day'] as const).map((v) => (
                <Button key={v} variant={view === v ? 'secondary' : 'ghost'} size="sm" className="h-10" aria-pressed={view === v} onClick={() => setView(v)}>
                  {viewLabels[v]}
                </Button>
              ))}
            </div>
            <p role="status" className="text-sm text-muted-foreground">
              {hasAppointmentFilters(filters)
                ? `Showing ${shown.length} of ${rows.length} appointments`
                : `${rows.length} ${rows.length === 1 ? 'appointment' : 'appointments'} in total`}
            </p>
            {hasAppointmentFilters(filters) && (
              <Button variant="ghost" size="sm" className="h-10" onClick={() => setFilters(noAppointmentFilters)}>
                Clear Filters
              </Button>
            )}
          </div>
        </div>

        <h2 ref={listHeadingRef} tabIndex={-1} className="sr-only">
          Appointment list
        </h2>
        {view === 'week' ? (
          <WeekView rows={shown} week={shownDay} onWeekChange={setShownDay} onOpen={openDetails} />
        ) : view === 'day' ? (
          <DayView rows={shown} day={shownDay} onDayChange={setShownDay} onOpen={openDetails} />
        ) : shown.length === 0 ? (
          <EmptyState
            icon={CalendarX2}
            title="No appointments found"
            description={
              rows.length === 0
                ? 'Consultations booked through the website will appear here.'
                : onlyStatus && filter !== 'all'
                  ? `No appointment is ${statusLabels[filter as AppointmentStatus].toLowerCase()}.`
                  : 'No appointment matches these filters.'
            }
            action={
              hasAppointmentFilters(filters) && rows.length > 0 ? (
                <Button variant="outline" onClick={() => setFilters(noAppointmentFilters)}>
                  Show All Appointments
                </Button>
              ) : undefined
            }
          />
        ) : (
          <div className="space-y-6">
            {upcoming.length > 0 && (
              <section aria-labelledby="upcoming-heading" className="space-y-3">
                <h3 id="upcoming-heading" className="text-lg font-semibold">
                  Upcoming <span className="text-muted-foreground">({upcoming.length})</span>
                </h3>
                <ul className="space-y-3">{upcoming.map(item)}</ul>
              </section>
            )}
            {past.length > 0 && (
              <section aria-labelledby="past-heading" className="space-y-3">
                <h3 id="past-heading" className="text-lg font-semibold">
                  Past <span className="text-muted-foreground">({past.length})</span>
                </h3>
                <ul className="space-y-3">{past.map(item)}</ul>
              </section>
            )}
          </div>
        )}
      </>
    );
  }

  // After a delete the row (and its buttons) are gone: the focus goes to the list. Otherwise back to
  // the Delete button that asked.
  const focusAfterDeleteDialog = (event: Event) => {
    const target = deleteTargetRef.current;
    if (!justDeleted.current) return deleteFocus.restore(event, () => (target ? fallbackFor(target) : listHeadingRef.current));
    event.preventDefault();
    justDeleted.current = false;
    listHeadingRef.current?.focus();
  };

  return (
    <AdminPage title="Appointments" description={`Consultations booked through the website. Times are ${FIRM_TIME_ZONE_LABEL}.`}>
      {body}
      <AppointmentDetailsDialog
        appointment={open}
        busy={open !== null && busyId === open.id}
        onClose={() => setOpenId(null)}
        onStatusChange={changeStatus}
        onDelete={askDelete}
        onCloseAutoFocus={(event) => {
          // Closed because its appointment was deleted: the delete confirmation places the focus.
          if (justDeleted.current) event.preventDefault();
          else detailsFocus.restore(event, () => rowButton(lastOpened.current) ?? listHeadingRef.current);
        }}
      />
      <FinalStatusDialog
        target={finalTarget}
        notice={finalTarget?.status === 'cancelled' ? clientNotice('cancel', finalTarget.appointment, { now: new Date(), emailConfigured }) : null}
        pending={updateStatus.isPending}
        onCancel={() => setFinalTarget(null)}
        onConfirm={({ appointment, status }, reason) => sendStatus(appointment.id, status, reason)}
        // Back to Change Status; once the status is final that button is gone.
        onCloseAutoFocus={(event) => finalFocus.restore(event, () => (finalTargetRef.current ? fallbackFor(finalTargetRef.current) : null))}
      />
      <ConfirmDialog
        open={deleteTarget !== null}
        onOpenChange={(isOpen) => !isOpen && setDeleteTarget(null)}
        title="Delete this appointment?"
        description={
          deleteTarget
            ? `${fullName(deleteTarget)}: ${consultationTypeLabel(deleteTarget.consultationType)} on ${formatFirmDateTime(deleteTarget.scheduledDate)}. The appointment is removed for good; this cannot be undone. ${clientNotice('delete', deleteTarget, { now: new Date(), emailConfigured })}`
            : ''
        }
        confirmLabel="Delete Appointment"
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleteTarget) return;
          const { id } = deleteTarget;
          remove.mutate(id, {
            onError: (error) => {
              setDeleteTarget(null);
              refetchIfStale(error, id);
            },
          });
        }}
        onCloseAutoFocus={focusAfterDeleteDialog}
      />
    </AdminPage>
  );
}

function AppointmentItem({
  appointment: a,
  busy,
  onOpen,
  onStatusChange,
  onDelete,
}: {
  appointment: Appointment;
  busy: boolean;
  onOpen: (opener: HTMLElement) => void;
  onStatusChange: (status: AppointmentStatus, opener: HTMLElement | null) => void;
  onDelete: (opener: HTMLElement) => void;
}) {
  const name = fullName(a);
  return (
    <li>
      <Card className="p-4 sm:p-5" data-testid="appointment" data-appointment-id={a.id}>
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
          <div className="min-w-0 space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              <h4 className="min-w-0 break-words text-base font-semibold">{name}</h4>
              <AppointmentStatusBadge status={a.status} />
            </div>
            <p className="text-sm">
              {consultationTypeLabel(a.consultationType)} <span className="text-muted-foreground">({a.duration} min)</span>
            </p>
            <p className="text-sm text-muted-foreground">Practice area: {practiceAreaLabel(a.practiceArea)}</p>
            {a.cancellationReason && <p className="break-words text-sm">Cancellation reason: {a.cancellationReason}</p>}
          </div>
          <p className="text-sm sm:text-right">
            <time dateTime={a.scheduledDate} className="block font-medium">
              {formatFirmDate(a.scheduledDate)}
            </time>
            <span className="block text-muted-foreground">{formatFirmTimeRange(a.scheduledDate, a.duration)}</span>
          </p>
        </div>
        <div className="mt-3 flex flex-wrap gap-2">
          <Button variant="outline" onClick={(e) => onOpen(e.currentTarget)} data-details-for={a.id}>
            View Details<span className="sr-only"> for {name}</span>
          </Button>
          {canConfirm(a) && (
            <Button disabled={busy} onClick={(e) => onStatusChange('confirmed', e.currentTarget)}>
              <Check aria-hidden="true" className="size-4" />
              Confirm<span className="sr-only"> appointment for {name}</span>
            </Button>
          )}
          {canChangeStatus(a) && (
            <StatusMenu status={a.status} name={name} disabled={busy} completable={canComplete(a, new Date())} onChange={onStatusChange} />
          )}
          <Button variant="outline" className="text-destructive" disabled={busy} onClick={(e) => onDelete(e.currentTarget)}>
            <Trash2 aria-hidden="true" className="size-4" />
            Delete<span className="sr-only"> appointment for {name}</span>
          </Button>
        </div>
      </Card>
    </li>
  );
}
