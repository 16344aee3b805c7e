import type { z } from 'zod';
import { isInboundRef } from '../../src/shared/booking/self-service.ts';
import { bookingMessages, dayAvailability, slotProblem, type BusyInterval, type DayAvailability } from '../../src/shared/booking/availability.ts';
import { dayClosure } from '../../src/shared/booking/rules.ts';
import { addDays, firmInstant, whenLabel } from '../../src/shared/firm-time.ts';
import { consultationMinutes, type AppointmentStatus } from '../../src/shared/constants.ts';
import type { appointmentInput, availabilityQuery } from '../../src/shared/schemas/appointments.ts';
import type { Write } from '../../db/transactions.ts';
import type { AppointmentRow } from '../activity.ts';
import type { Deps } from '../deps.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { bookingRulesService } from '../booking-rules/booking-rules.service.ts';
import { calendarBusyTimes } from '../calendar-sync/busy-times.ts';
import { appointmentsRepository, CLAIM_MINUTES, claimCells, type AppointmentValues } from './appointments.repository.ts';

/** SPEC §4 Appointment status: completed and cancelled are terminal. */
export const terminalStatuses: readonly string[] = ['completed', 'cancelled'] satisfies AppointmentStatus[];
/** An appointment in these statuses holds its time: nothing else may be booked over it. */
export const liveStatuses: readonly string[] = ['scheduled', 'confirmed'] satisfies AppointmentStatus[];

export type AppointmentsDeps = Pick<Deps, 'database' | 'clock' | 'activity' | 'events' | 'integrations' | 'secrets' | 'log'>;

const overlaps = (a: BusyInterval, start: Date, end: Date) => a.start < end && start < a.end;

/**
 * The calendar's busy periods less [start, end): an appointment being moved has its own event in the
 * firm's calendar (calendar sync put it there), which must not keep it from its own time.
 */
function without(busy: readonly BusyInterval[], own: BusyInterval | null): BusyInterval[] {
  if (!own) return [...busy];
  return busy.flatMap((b) => {
    if (!overlaps(b, own.start, own.end)) return [b];
    const parts: BusyInterval[] = [];
    if (b.start < own.start) parts.push({ start: b.start, end: own.start });
    if (own.end < b.end) parts.push({ start: own.end, end: b.end });
    return parts;
  });
}

/**
 * Ids written by an inbound calendar (a Calendly invitee URI) are URLs; the ids Google and Outlook
 * give their events never are. Outbound sync must not overwrite the inbound one: the cancellation
 * webhook finds its appointment by it.
 */
export { isInboundRef };

/** Booked through an external scheduler (a Calendly invitee), which mails the visitor itself. */
export const bookedExternally = (appointment: Pick<AppointmentRow, 'externalEventId'>) => isInboundRef(appointment.externalEventId);

export function appointmentsService(deps: AppointmentsDeps) {
  const { database, clock, activity, events } = deps;
  const repo = appointmentsRepository(database);
  // The firm's availability as stored (decision 032), kept in memory until an admin changes it.
  const bookingRules = bookingRulesService({ database, events });
  // The connected calendar's busy periods (decision 036).
  const calendar = calendarBusyTimes(deps);

  /**
   * Whether [start, start + minutes) is still free beyond the slot claims: no cell of it that a live
   * appointment occupies without holding its claim (a Calendly booking, or one the firm moved in its
   * calendar, holds only the cells that were free), nor a busy period of the connected calendar, read
   * afresh (a minute-old answer may miss the court date added since). A claimed cell is left to the
   * booking's own transaction, which the database refuses it in: so two requests with one
   * Idempotency-Key racing in two processes still meet at the key (one is stored, both get its answer),
   * not here. `except`: the appointment being moved (its own time and its own event count as free).
   */
  async function stillFree(start: Date, minutes: number, except?: { id: string; start: Date; minutes: number }): Promise<boolean> {
    const end = new Date(start.getTime() + minutes * 60_000);
    const live = await repo.liveDuring(start, end, liveStatuses, except?.id);
    if (live.length) {
      const wanted = claimCells(start, minutes);
      const held = new Set(
        (await repo.claimedCells(wanted[0]!, new Date(wanted.at(-1)!.getTime() + CLAIM_MINUTES * 60_000), except?.id)).map((t) => t.getTime()),
      );
      const occupied = new Set(live.flatMap((r) => claimCells(r.scheduledDate, r.duration)).map((t) => t.getTime()));
      if (wanted.some((t) => occupied.has(t.getTime()) && !held.has(t.getTime()))) return false;
    }
    const own = except ? { start: except.start, end: new Date(except.start.getTime() + except.minutes * 60_000) } : null;
    return !without(await calendar.during(start, end, { fresh: true }), own).some((b) => overlaps(b, start, end));
  }

  return {
    stillFree,
    listAll: repo.listAll,
    findById: repo.findById,
    findByExternalEventId: repo.findByExternalEventId,

    /**
     * Whatever the modal allowed, the time must be one of SPEC §9's slots in firm time, on a day the
     * firm takes consultations (no weekend, holiday or closure), at least the minimum notice ahead,
     * within the booking window, and the consultation must end inside the consultation hours (400 on
     * scheduledDate, with the reason in the visitor's words: src/shared/booking/rules.ts); and free:
     * the claims' primary key refuses a taken cell in the database itself, so of two visitors racing
     * for it, in any number of processes, exactly one gets the 201 (decision 008).
     */
    async book(input: z.output<typeof appointmentInput>, also: (booking: AppointmentValues & { id: string }) => readonly Write[] = () => []) {
      const now = clock.now();
      // SPEC §9: the duration is set from the chosen type, whatever the client sent.
      const duration = consultationMinutes(input.consultationType);
      const problem = slotProblem(input.scheduledDate, now, duration, await bookingRules.current());
      if (problem) throw badRequest(problem, { scheduledDate: problem });
      // Busy elsewhere (decision 036): refused as a taken time is, nothing written.
      if (!(await stillFree(input.scheduledDate, duration))) throw conflict(bookingMessages.taken, { scheduledDate: bookingMessages.taken });
      const id = crypto.randomUUID();
      const values = { ...input, duration, id, reminderSent: !getsReminder({ scheduledDate: input.scheduledDate, externalEventId: null }, now) };
      // Commit with the booking: ahead of it, `also` (decision 016: the answer kept under the
      // request's key); after its claims, the confirmation, the firm's notification and the calendar
      // event (the outbox, decision 022). Their sending never fails the booking.
      const planned = activity.plan({
        type: 'appointment-booked',
        appointment: { ...values, externalEventId: null, cancellationReason: null, createdAt: now, updatedAt: now },
      });
      const row = await repo.createWithClaims(values, claimCells(input.scheduledDate, duration), { before: also(values), after: planned });
      if (!row) throw conflict(bookingMessages.taken, { scheduledDate: bookingMessages.taken });
      await activity.emit({ type: 'appointment-booked', appointment: row });
      return row;
    },

    /**
     * Which slots of a firm day a consultation of this type can still take. Busy: the claims, every
     * live appointment's whole time, and the connected calendar's busy periods (decision 036; kept a
     * minute). `except`: an appointment being moved, whose own time counts as free.
     */
    async availability(
      { date, consultationType }: z.output<typeof availabilityQuery>,
      except?: { id: string; start: Date; minutes: number },
    ): Promise<DayAvailability> {
      const now = clock.now();
      const minutes = consultationMinutes(consultationType);
      const rules = await bookingRules.current();
      if (dayClosure(date, now, rules)) return dayAvailability({ date, now, minutes, busy: [], rules });
      const from = firmInstant(date, '00:00');
      const to = firmInstant(addDays(date, 1), '00:00');
      const [cells, live, calendarBusy] = await Promise.all([
        repo.claimedCells(from, to, except?.id),
        repo.liveDuring(from, to, liveStatuses, except?.id),
        calendar.during(from, to),
      ]);
      const own = except ? { start: except.start, end: new Date(except.start.getTime() + except.minutes * 60_000) } : null;
      const busy = [
        ...cells.map((start) => ({ start, end: new Date(start.getTime() + CLAIM_MINUTES * 60_000) })),
        ...live.map((a) => ({ start: a.scheduledDate, end: new Date(a.scheduledDate.getTime() + a.duration * 60_000) })),
        ...without(calendarBusy, own),
      ];
      return dayAvailability({ date, now, minutes, busy, rules });
    },

    /** `by`: 'visitor' when the visitor did it through their booking's link (the firm is told). */
    async setStatus(id: string, status: AppointmentStatus, { by, reason = null }: { by?: 'visitor'; reason?: string | null } = {}) {
      if (reason && status !== 'cancelled') throw badRequest('Please check the highlighted fields.', { reason: 'A reason goes with a cancellation only' });
      // Retried once: a concurrent change between the read and the write is judged on the new status.
      for (let attempt = 0; ; attempt++) {
        const current = await repo.findById(id);
        if (!current) throw notFound('Appointment not found');
        if (current.status === status) {
          // The same status again changes nothing; a reason would be dropped silently, so it is refused.
          if (reason) throw conflict('This appointment is already cancelled; its reason can no longer change.');
          return current;
        }
        if (terminalStatuses.includes(current.status)) throw conflict(`This appointment is already ${current.status}; its status can no longer change.`);
        // Completed is a fact about the past (issue 19): a consultation still to come cannot be.
        if (status === 'completed' && current.scheduledDate > clock.now()) {
          throw conflict(`This consultation has not started yet: it can be marked completed from ${whenLabel(current.scheduledDate)}.`);
        }
        // A slot is taken while its appointment is scheduled or confirmed, so cancelling or
        // completing one frees it (a future consultation marked completed by mistake blocks nothing).
        const row = await repo.setStatus(id, current.status, status, { releaseSlots: terminalStatuses.includes(status), cancellationReason: reason });
        if (row) {
          await activity.emit({ type: 'appointment-changed', appointment: row, previousStatus: current.status, ...(by ? { by } : {}) });
          return row;
        }
        if (attempt >= 1) throw conflict('This appointment was changed by someone else at the same time; reload and try again.');
      }
    },

    /**
     * Moved by the firm in its own calendar (api/calendar-sync/calendar-inbound.ts): the firm chose
     * the time, so it is recorded off the slot grid too, its status kept and only its cells still free
     * claimed (as recordExternalBooking does); the visitor is told as of any move. null when there is
     * nothing to move: gone, cancelled or completed, or already at that time (the same change read
     * twice, by two containers or after a lost cursor, moves it and mails the visitor once).
     */
    /** The other live appointments during this one's time (a move made in the firm's calendar may land on them). */
    async overlapping(row: AppointmentRow): Promise<{ scheduledDate: Date; duration: number; consultationType: string }[]> {
      return repo.liveDuring(row.scheduledDate, new Date(row.scheduledDate.getTime() + row.duration * 60_000), liveStatuses, row.id);
    },

    async moveByFirm(id: string, to: Date): Promise<AppointmentRow | null> {
      for (let attempt = 0; ; attempt++) {
        const current = await repo.findById(id);
        if (!current || terminalStatuses.includes(current.status) || current.scheduledDate.getTime() === to.getTime()) return null;
        const moved = await repo.reschedule(
          id,
          { from: current.scheduledDate, status: current.status },
          {
            to,
            cells: claimCells(to, current.duration),
            reminderSent: !getsReminder({ scheduledDate: to, externalEventId: current.externalEventId }, clock.now()),
            byFirm: true,
          },
        );
        if ('row' in moved) {
          await activity.emit({ type: 'appointment-changed', appointment: moved.row, previousStatus: current.status, previousDate: current.scheduledDate });
          return moved.row;
        }
        // Changed meanwhile: judged again on what it is now.
        if (attempt >= 1) throw conflict('This appointment was changed by someone else at the same time; reload and try again.');
      }
    },

    async remove(id: string) {
      const row = await repo.remove(id);
      if (!row) throw notFound('Appointment not found');
      await activity.emit({ type: 'appointment-deleted', appointment: row });
    },

    /**
     * An appointment booked elsewhere (a Calendly invitee). It already happened there, so it
     * is recorded whatever the grid says (the repository claims only the cells still free), once per
     * external event (the unique index decides), and announced as a booking made here is. `created`
     * false: it was recorded already (`row` null when that record is gone again).
     */
    async recordExternalBooking(
      values: AppointmentValues & { externalEventId: string },
    ): Promise<{ created: boolean; row: AppointmentRow | null; overlapping: { scheduledDate: Date; duration: number; consultationType: string }[] }> {
      const now = clock.now();
      const booked = { ...values, id: crypto.randomUUID(), reminderSent: !getsReminder(values, now) };
      const planned = activity.plan({ type: 'appointment-booked', appointment: { ...booked, cancellationReason: null, createdAt: now, updatedAt: now } });
      const row = await repo.createFromExternalCalendar(booked, claimCells(values.scheduledDate, values.duration), planned);
      // The same event, delivered at the same moment, got there first.
      if (!row) return { created: false, row: await repo.findByExternalEventId(values.externalEventId), overlapping: [] };
      await activity.emit({ type: 'appointment-booked', appointment: row });
      // The live appointments it landed on (both are kept: the firm settles it with the clients).
      const end = new Date(row.scheduledDate.getTime() + row.duration * 60_000);
      const overlapping = await repo.liveDuring(row.scheduledDate, end, liveStatuses, row.id);
      return { created: true, row, overlapping };
    },

    /**
     * Records the event a calendar provider made for the appointment, unless the appointment came
     * from an inbound calendar: its reference is how that calendar's cancellation finds it.
     */
    async recordProviderEvent(appointment: Pick<AppointmentRow, 'id' | 'externalEventId'>, eventId: string): Promise<void> {
      if (!isInboundRef(appointment.externalEventId)) await repo.setExternalEventId(appointment.id, eventId);
    },
  };
}

/**
 * Consultation reminders: about 24 hours before each scheduled or confirmed appointment,
 * once, never after a cancellation (DOMAIN "Scheduling": reminders sent after a cancellation are a
 * top complaint about schedulers). Mail queues them (api/mail/reminders.ts); these are the rules.
 * - Due: scheduled or confirmed, reminderSent false, starting within the next 24 hours but not
 *   started yet. A server that was down catches up: an appointment 3 hours away still gets its reminder.
 * - No reminder for an appointment booked less than 26 hours before it starts: its confirmation has
 *   just gone out with the same details, and a reminder would follow within two hours of it. The
 *   booking is stored with reminderSent set for those (getsReminder, on the injected clock).
 * - No reminder either for a booking made through an external scheduler (Calendly, recognised by its
 *   inbound event reference): the scheduler mails its invitee itself, and our reminder's calendar
 *   file would add a second event to the visitor's calendar. Also settled at booking.
 * - Whether to send is decided again at send time: a reminder for an appointment cancelled,
 *   completed, deleted or already started meanwhile is skipped.
 */
export const REMINDER_LEAD_MS = 24 * 60 * 60_000;
/** A reminder must come at least this long after the confirmation to be worth sending. */
export const REMINDER_MIN_GAP_AFTER_BOOKING_MS = 2 * 60 * 60_000;
/** Statuses that still get a reminder; cancelled and completed never do. */
export const REMINDABLE_STATUSES = ['scheduled', 'confirmed'] as const;
/** At most this many reminders are found due by one scan. */
const REMINDER_SCAN_LIMIT = 500;

/**
 * Decided at booking: whether the consultation will get its reminder, 24 hours before it starts (a
 * booking made through an external scheduler never does; neither does one whose confirmation is its
 * reminder, booked less than 26 hours ahead). One that will not is stored with reminderSent set, so
 * no scan picks it up.
 */
export function getsReminder(appointment: Pick<AppointmentRow, 'scheduledDate' | 'externalEventId'>, now: Date): boolean {
  const lead = appointment.scheduledDate.getTime() - now.getTime();
  return !bookedExternally(appointment) && lead >= REMINDER_LEAD_MS + REMINDER_MIN_GAP_AFTER_BOOKING_MS;
}

export function appointmentReminders({ database, clock }: Pick<Deps, 'database' | 'clock'>) {
  const repo = appointmentsRepository(database);
  return {
    /** The appointments whose reminder is due now (id and address), soonest first. */
    due() {
      const now = clock.now();
      return repo.dueForReminder(now, new Date(now.getTime() + REMINDER_LEAD_MS), REMINDABLE_STATUSES, REMINDER_SCAN_LIMIT);
    },

    /** The reminder is settled (queued); it is not due again. */
    markSent: (id: string) => repo.markReminderSent(id),

    /** At send time: the appointment as it is now, or why its reminder is no longer sent. */
    async toSend(id: string, now = clock.now()): Promise<{ appointment: AppointmentRow } | { skip: string }> {
      const row = await repo.findById(id);
      if (!row) return { skip: 'The appointment was deleted' };
      if (bookedExternally(row)) return { skip: 'Booked through an external scheduler, which sends its own reminders' };
      if (!(REMINDABLE_STATUSES as readonly string[]).includes(row.status)) return { skip: `The appointment is ${row.status}` };
      if (row.scheduledDate.getTime() <= now.getTime()) return { skip: 'The appointment has already started' };
      return { appointment: row };
    },
  };
}
