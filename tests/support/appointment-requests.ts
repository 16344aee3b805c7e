/**
 * What the API-level tests send to POST /api/appointments (SPEC §7): a visitor's booking, and a fresh
 * slot for each booking that is not about a particular time.
 */
import type { APIRequestContext } from '@playwright/test';
import { addDays, firmInstant, firmToday, isWeekend, type FirmDate } from '../../src/shared/firm-time.ts';

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

const hourSlots = ['09:00', '10:00', '11:00', '13:00', '14:00', '15:00', '16:00'];

/**
 * The next free slot at each call: on-the-hour slots (so a 60-minute consultation never overlaps the
 * next one) of the weekdays from `monday` on, as the UTC instant the modal sends. Each test file makes
 * its own, from a week no test of the file books by hand; both dialects' suites draw from it in turn,
 * so no booking takes another's time.
 */
export function freeSlots(monday: FirmDate): () => string {
  let allocated = 0;
  return () => {
    const n = allocated++;
    const weekday = Math.floor(n / hourSlots.length);
    const date = addDays(monday, Math.floor(weekday / 5) * 7 + (weekday % 5));
    return firmInstant(date, hourSlots[n % hourSlots.length]!).toISOString();
  };
}

/** A free slot far ahead (past the other specs' bookings), from the availability the modal uses. */
export async function freeSlot(request: APIRequestContext): Promise<string> {
  for (let offset = 200; offset < 360; offset++) {
    const date = addDays(firmToday(new Date()), offset);
    if (isWeekend(date)) continue;
    const day = (await (await request.get(`/api/appointments/availability?date=${date}&consultationType=initial`)).json()) as {
      slots: { startsAt: string; available: boolean }[];
    };
    const slot = day.slots.find((s) => s.available);
    if (slot) return slot.startsAt;
  }
  throw new Error('no free slot');
}
