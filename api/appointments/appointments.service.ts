import type { z } from 'zod';
import { bookingMessages, dayAvailability, slotProblem, type DayAvailability } from '../../src/shared/booking/availability.ts';
import { addDays, firmInstant, isBookableDay } from '../../src/shared/firm-time.ts';
import { consultationMinutes, type AppointmentStatus } from '../../src/shared/constants.ts';
import type { appointmentInput, availabilityQuery } from '../../src/shared/schemas/appointments.ts';
import type { Write } from '../../db/transactions.ts';
import type { Deps } from '../deps.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { appointmentsRepository, CLAIM_MINUTES, claimCells, type AppointmentValues } from './appointments.repository.ts';

/** SPEC §4 Appointment status: completed and cancelled are terminal. */
const terminal: readonly string[] = ['completed', 'cancelled'] satisfies AppointmentStatus[];

export function appointmentsService({ database, clock, activity }: Deps) {
  const repo = appointmentsRepository(database);
  return {
    listAll: repo.listAll,

    /**
     * Issue 5 "The server decides": whatever the modal allowed, the time must be one of SPEC §9's slots
     * in firm time, on a weekday, ahead of now and within the booking window (400 on scheduledDate),
     * and free: the claims' primary key refuses a taken cell in the database itself, so of two
     * visitors racing for it, in any number of processes, exactly one gets the 201 (decision 008).
     */
    async book(input: z.output<typeof appointmentInput>, also: (booking: AppointmentValues & { id: string }) => readonly Write[] = () => []) {
      const problem = slotProblem(input.scheduledDate, clock.now());
      if (problem) throw badRequest(problem, { scheduledDate: problem });
      // SPEC §9: the duration is set from the chosen type, whatever the client sent.
      const duration = consultationMinutes(input.consultationType);
      const values = { ...input, duration, id: crypto.randomUUID() };
      // `also`: what commits with the booking (decision 016: the answer kept under the request's key).
      const row = await repo.createWithClaims(values, claimCells(input.scheduledDate, duration), also(values));
      if (!row) throw conflict(bookingMessages.taken, { scheduledDate: bookingMessages.taken });
      // Issue 7: the confirmation, the firm's notification and the calendar event are queued before
      // the visitor hears back; their sending never fails the booking.
      await activity.emit({ type: 'appointment-booked', appointment: row });
      return row;
    },

    /** Which slots of a firm day a consultation of this type can still take (the claims are the busy time). */
    async availability({ date, consultationType }: z.output<typeof availabilityQuery>): Promise<DayAvailability> {
      const now = clock.now();
      const minutes = consultationMinutes(consultationType);
      if (!isBookableDay(date, now)) return dayAvailability({ date, now, minutes, busy: [] });
      const cells = await repo.claimedCells(firmInstant(date, '00:00'), firmInstant(addDays(date, 1), '00:00'));
      const busy = cells.map((start) => ({ start, end: new Date(start.getTime() + CLAIM_MINUTES * 60_000) }));
      return dayAvailability({ date, now, minutes, busy });
    },

    async setStatus(id: string, status: AppointmentStatus) {
      // Retried once: a concurrent change between the read and the write is judged on the new status.
      for (let attempt = 0; ; attempt++) {
        const current = await repo.findById(id);
        if (!current) throw notFound('Appointment not found');
        if (current.status === status) return current;
        if (terminal.includes(current.status)) throw conflict(`This appointment is already ${current.status}; its status can no longer change.`);
        // Issue 5: a slot is taken while its appointment is scheduled or confirmed, so cancelling or
        // completing one frees it (a future consultation marked completed by mistake blocks nothing).
        const row = await repo.setStatus(id, current.status, status, { releaseSlots: terminal.includes(status) });
        if (row) {
          await activity.emit({ type: 'appointment-changed', appointment: row, previousStatus: current.status });
          return row;
        }
        if (attempt >= 1) throw conflict('This appointment was changed by someone else at the same time; reload and try again.');
      }
    },

    async remove(id: string) {
      const row = await repo.remove(id);
      if (!row) throw notFound('Appointment not found');
      await activity.emit({ type: 'appointment-deleted', appointment: row });
    },
  };
}
