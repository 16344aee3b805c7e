import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

export type AppointmentValues = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  consultationType: string;
  practiceArea: string;
  notes: string | null;
  scheduledDate: Date;
  duration: number;
  status: string;
  reminderSent: boolean;
};

export function appointmentsRepository({ db, t }: Database) {
  const table = t.appointments;
  return {
    listAll: () => db.select().from(table).orderBy(desc(table.scheduledDate)),
    async findById(id: string) {
      const [row] = await db.select().from(table).where(eq(table.id, id));
      return row ?? null;
    },
    async create(values: AppointmentValues) {
      const [row] = await db.insert(table).values(values).returning();
      return row!;
    },
    /**
     * Compare-and-set: changes the status only if it is still `from`, so two admins acting at once
     * cannot move an appointment out of a terminal status. null when it was not (or no longer) `from`.
     */
    async setStatus(id: string, from: string, to: string) {
      const [row] = await db
        .update(table)
        .set({ status: to })
        .where(and(eq(table.id, id), eq(table.status, from)))
        .returning();
      return row ?? null;
    },
    async remove(id: string) {
      const rows = await db.delete(table).where(eq(table.id, id)).returning({ id: table.id });
      return rows.length > 0;
    },
  };
}
