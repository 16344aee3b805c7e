/**
 * Self-service (issue 18): what a visitor can do with their booking's own link (manage-link.ts),
 * as Cal.com lets an attendee: see it, cancel it, or move it to another free time within the firm's
 * rules, until it starts. A cancellation is the admin's cancellation (the same e-mail, calendar
 * removal and freed slot), said to come from the visitor so the firm is told; a move is judged by the
 * rules a booking is, and the visitor, the firm and the calendar hear of it.
 *
 * Every refusal says why, in the visitor's words: 404 for a link that was not made here, 409 for a
 * consultation that can no longer change (cancelled, taken place, started, booked elsewhere), 400 for
 * a time the rules refuse, 409 for a time taken meanwhile.
 */
import { bookingMessages, slotProblem, type DayAvailability } from '../../src/shared/booking/availability.ts';
import { bookingReference, selfServiceMessages as messages } from '../../src/shared/booking/self-service.ts';
import type { ConsultationType } from '../../src/shared/constants.ts';
import type { FirmDate } from '../../src/shared/firm-time.ts';
import type { AppointmentRow } from '../activity.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { bookingRulesService } from '../booking-rules/booking-rules.service.ts';
import { appointmentsRepository, claimCells } from './appointments.repository.ts';
import { appointmentsService, bookedExternally, getsReminder, type AppointmentsDeps } from './appointments.service.ts';
import { appointmentIdOf } from './manage-link.ts';

/** What the booking's page shows: no e-mail, phone or notes (the link may be forwarded). */
export interface ManagedBooking {
  reference: string;
  firstName: string;
  consultationType: string;
  scheduledDate: Date;
  duration: number;
  status: string;
  /** Whether it can still be cancelled or moved here; otherwise `reason` says why not. */
  changeable: boolean;
  reason?: string;
}

export function appointmentSelfService(deps: AppointmentsDeps) {
  const { clock, secrets, activity } = deps;
  const repo = appointmentsRepository(deps.database);
  const appointments = appointmentsService(deps);
  const bookingRules = bookingRulesService(deps);

  async function find(token: string | undefined): Promise<AppointmentRow> {
    const id = appointmentIdOf(secrets, token);
    if (!id) throw notFound(messages.invalidLink);
    const row = await repo.findById(id);
    // The link was ours, but the firm deleted the record.
    if (!row) throw notFound(messages.gone);
    return row;
  }

  /** Why it can no longer be changed here, or null. */
  function whyFixed(row: AppointmentRow, now: Date): string | null {
    if (row.status === 'cancelled') return messages.cancelled;
    if (row.status === 'completed') return messages.completed;
    if (row.scheduledDate.getTime() <= now.getTime()) return messages.started;
    if (bookedExternally(row)) return messages.external;
    return null;
  }

  async function changeable(token: string | undefined): Promise<AppointmentRow> {
    const row = await find(token);
    const why = whyFixed(row, clock.now());
    if (why) throw conflict(why);
    return row;
  }

  const view = (row: AppointmentRow): ManagedBooking => {
    const reason = whyFixed(row, clock.now());
    return {
      reference: bookingReference(row.id),
      firstName: row.firstName,
      consultationType: row.consultationType,
      scheduledDate: row.scheduledDate,
      duration: row.duration,
      status: row.status,
      changeable: !reason,
      ...(reason ? { reason } : {}),
    };
  };

  return {
    async show(token: string | undefined): Promise<ManagedBooking> {
      return view(await find(token));
    },

    /** A day's times this consultation could move to; its own time counts as free. */
    async availability(token: string | undefined, date: FirmDate): Promise<DayAvailability> {
      const row = await changeable(token);
      return appointments.availability(
        { date, consultationType: row.consultationType as ConsultationType },
        { id: row.id, start: row.scheduledDate, minutes: row.duration },
      );
    },

    async cancel(token: string | undefined): Promise<ManagedBooking> {
      const row = await changeable(token);
      return view(await appointments.setStatus(row.id, 'cancelled', { by: 'visitor' }));
    },

    async reschedule(token: string | undefined, to: Date): Promise<ManagedBooking> {
      const row = await changeable(token);
      const now = clock.now();
      // Already there (a retry whose first answer was lost): done, nothing is sent again.
      if (to.getTime() === row.scheduledDate.getTime()) return view(row);
      const problem = slotProblem(to, now, row.duration, await bookingRules.current());
      if (problem) throw badRequest(problem, { scheduledDate: problem });
      // Busy elsewhere (decision 036): a live appointment's time or the calendar's, read afresh.
      if (!(await appointments.stillFree(to, row.duration, { id: row.id, start: row.scheduledDate, minutes: row.duration }))) {
        throw conflict(bookingMessages.taken, { scheduledDate: bookingMessages.taken });
      }
      const moved = await repo.reschedule(
        row.id,
        { from: row.scheduledDate, status: row.status },
        { to, cells: claimCells(to, row.duration), reminderSent: !getsReminder({ scheduledDate: to, externalEventId: null }, now) },
      );
      if ('refused' in moved) {
        if (moved.refused === 'taken') throw conflict(bookingMessages.taken, { scheduledDate: bookingMessages.taken });
        throw conflict(messages.changedMeanwhile);
      }
      await activity.emit({ type: 'appointment-changed', appointment: moved.row, previousStatus: row.status, previousDate: row.scheduledDate, by: 'visitor' });
      return view(moved.row);
    },
  };
}
