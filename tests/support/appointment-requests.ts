/**
 * The test factories for bookings (SPEC §7 POST /api/appointments), shared by the in-process tests and
 * the e2e specs: the instant the clock-driven tests stand at (`NOW`), a visitor's booking, fresh slots
 * (`freeSlots` in-process, `freeSlot` against the server under test) and `book`.
 */
import type { APIRequestContext } from '@playwright/test';
import { asc, eq } from 'drizzle-orm';
import { addDays, firmInstant, firmToday, type FirmDate } from '../../src/shared/firm-time.ts';
import { isBookableDay, nthBookableDay } from './bookable-days.ts';
import type { TestContext } from './test-app.ts';

/**
 * Monday 1 April 2030, 9:00 AM at the firm (PDT, UTC-7): where the in-process tests that set the clock
 * set it. The booking window then runs to Tuesday 1 April 2031; the slots the tests book lie between.
 */
export const NOW = '2030-04-01T16:00:00.000Z';

/** The booking modal's payload but for the time (scheduledDate). */
export const visitorBooking = {
  firstName: 'Maria',
  lastName: 'Lopez',
  email: 'maria.lopez@example.com',
  phone: '(619) 555-0142',
  consultationType: 'estate-planning',
  practiceArea: 'trust-administration',
  notes: 'Questions about my late father’s trust.',
};

/** SPEC §9's times on the hour: a 60-minute consultation at one never overlaps the next. */
const hourSlots = ['09:00', '10:00', '11:00', '13:00', '14:00', '15:00', '16:00'];

/**
 * The next free slot at each call, as the UTC instant the modal sends: `times` (every hour slot unless
 * told) of each bookable day from `from` on. Each test file makes its own, from a week no test of the file
 * books by hand; both dialects' suites draw from it in turn, so no booking takes another's time.
 */
export function freeSlots(from: FirmDate, times: readonly string[] = hourSlots): () => string {
  let allocated = 0;
  return () => {
    const n = allocated++;
    return firmInstant(nthBookableDay(from, Math.floor(n / times.length)), times[n % times.length]!).toISOString();
  };
}

/** A free slot on the server under test, far ahead (past the other specs' bookings), from the availability the modal uses. */
export async function freeSlot(request: APIRequestContext): Promise<string> {
  for (let offset = 200; offset < 360; offset++) {
    const date = addDays(firmToday(new Date()), offset);
    if (!isBookableDay(date)) continue;
    const day = (await (await request.get(`/api/appointments/availability?date=${date}&consultationType=initial`)).json()) as {
      slots: { startsAt: string; available: boolean }[];
    };
    const slot = day.slots.find((s) => s.available);
    if (slot) return slot.startsAt;
  }
  throw new Error('no free slot');
}

/** What POST /api/appointments answers, with the name and e-mail sent. */
export interface Booked {
  id: string;
  consultationType: string;
  scheduledDate: string;
  duration: number;
  status: string;
  firstName: string;
  lastName: string;
  email: string;
}

/** The app in-process (a test context), or the server under test (Playwright's request). */
export type BookingTarget = Pick<TestContext, 'call'> | APIRequestContext;

/**
 * Books as a visitor does when the booking is not what is tested: POST /api/appointments with
 * `visitorBooking`, `booking` over it (its time at least). Fails unless the API answers 201.
 */
export async function book(target: BookingTarget, booking: { scheduledDate: string } & Record<string, unknown>): Promise<Booked> {
  const body = { ...visitorBooking, ...booking };
  let status: number;
  let answer: unknown;
  if ('call' in target) {
    ({ status, body: answer } = await target.call('POST', '/api/appointments', { body }));
  } else {
    const res = await target.post('/api/appointments', { data: body });
    status = res.status();
    answer = await res.json().catch(() => null);
  }
  if (status !== 201) throw new Error(`booking refused with ${status}: ${JSON.stringify(answer)}`);
  const { firstName, lastName, email } = body as { firstName: string; lastName: string; email: string };
  return { firstName, lastName, email, ...(answer as Omit<Booked, 'firstName' | 'lastName' | 'email'>) };
}

/**
 * One in-process test file's bookings: `book(ctx, patch)` books `body()` over `visitorBooking` at
 * the next of `freeSlot`'s slots (`freeSlots(from, times)`), unless the patch names a time.
 */
export function bookings(from: FirmDate, { times, body }: { times?: readonly string[]; body?: () => Record<string, unknown> } = {}) {
  const freeSlot = freeSlots(from, times);
  return {
    freeSlot,
    book: (ctx: Pick<TestContext, 'call'>, patch: Record<string, unknown> = {}) => book(ctx, { ...body?.(), scheduledDate: freeSlot(), ...patch }),
  };
}

/** The appointment as stored, straight from the database of an in-process test. */
export async function storedAppointment(ctx: Pick<TestContext, 'database'>, id: string) {
  const { db, t } = ctx.database;
  const [row] = await db.select().from(t.appointments).where(eq(t.appointments.id, id));
  return row;
}

/** The starts (ISO) of the slot cells an appointment holds, in order (docs/decisions/008). */
export async function claimsOf(ctx: Pick<TestContext, 'database'>, id: string): Promise<string[]> {
  const { db, t } = ctx.database;
  const rows = await db
    .select({ startsAt: t.appointmentSlotClaims.startsAt })
    .from(t.appointmentSlotClaims)
    .where(eq(t.appointmentSlotClaims.appointmentId, id))
    .orderBy(asc(t.appointmentSlotClaims.startsAt));
  return rows.map((r) => r.startsAt.toISOString());
}
