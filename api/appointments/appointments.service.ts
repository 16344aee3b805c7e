import type { z } from 'zod';
import { consultationMinutes, type AppointmentStatus } from '../../src/shared/constants.ts';
import type { appointmentInput } from '../../src/shared/schemas/appointments.ts';
import type { Deps } from '../deps.ts';
import { conflict, notFound } from '../http/errors.ts';
import { appointmentsRepository } from './appointments.repository.ts';

/** SPEC §4 Appointment status: completed and cancelled are terminal. */
const terminal: readonly string[] = ['completed', 'cancelled'] satisfies AppointmentStatus[];

export function appointmentsService({ database }: Deps) {
  const repo = appointmentsRepository(database);
  return {
    listAll: repo.listAll,

    async book(input: z.output<typeof appointmentInput>) {
      // SPEC §9: the duration is set from the chosen type, whatever the client sent.
      return repo.create({ ...input, duration: consultationMinutes(input.consultationType) });
    },

    async setStatus(id: string, status: AppointmentStatus) {
      // Retried once: a concurrent change between the read and the write is judged on the new status.
      for (let attempt = 0; ; attempt++) {
        const current = await repo.findById(id);
        if (!current) throw notFound('Appointment not found');
        if (current.status === status) return current;
        if (terminal.includes(current.status)) throw conflict(`This appointment is already ${current.status}; its status can no longer change.`);
        const row = await repo.setStatus(id, current.status, status);
        if (row) return row;
        if (attempt >= 1) throw conflict('This appointment was changed by someone else at the same time; reload and try again.');
      }
    },

    async remove(id: string) {
      if (!(await repo.remove(id))) throw notFound('Appointment not found');
    },
  };
}
