/**
 * Which of a day's 13 slots (SPEC §9) a visitor can still book. Pure and
 * browser-safe: the API answers GET /api/appointments/availability with it, and the booking modal
 * uses the same type. `busy` comes from the database (the slot claims of docs/decisions/008).
 */
import { timeSlots } from '../constants.ts';
import {
  addDays,
  BOOKING_WINDOW_DAYS,
  FIRM_TIME_ZONE,
  firmDateOf,
  firmInstant,
  firmTimeOf,
  firmToday,
  isBookableDay,
  isWeekend,
  slotLabel,
  type FirmDate,
} from '../firm-time.ts';

export interface SlotAvailability {
  /** Firm wall-clock time, '09:00'. */
  time: string;
  /** '9:00 AM'. */
  label: string;
  /** The instant, ISO UTC: what the modal sends as `scheduledDate`. */
  startsAt: string;
  available: boolean;
  reason?: 'past' | 'taken' | 'closed';
}

export interface DayAvailability {
  date: FirmDate;
  timeZone: string;
  /** false for weekends, days before firm today or beyond the booking window, and a today with no slot left ahead. */
  bookable: boolean;
  /** Always the 13 slots of SPEC §9, in order. */
  slots: SlotAvailability[];
}

export interface BusyInterval {
  start: Date;
  end: Date;
}

/**
 * A slot is available when the day is bookable, the slot starts after `now`, and the consultation
 * ([start, start + minutes)) overlaps no busy interval. Intervals are half-open: a 9:00-9:30 meeting
 * leaves 9:30 free.
 */
export function dayAvailability({ date, now, minutes, busy }: { date: FirmDate; now: Date; minutes: number; busy: readonly BusyInterval[] }): DayAvailability {
  const dayOpen = isBookableDay(date, now);
  const closedReason = date < firmToday(now) ? 'past' : 'closed';
  const slots = timeSlots.map((time): SlotAvailability => {
    const start = firmInstant(date, time);
    const base = { time, label: slotLabel(time), startsAt: start.toISOString() };
    if (!dayOpen) return { ...base, available: false, reason: closedReason };
    if (start.getTime() <= now.getTime()) return { ...base, available: false, reason: 'past' };
    const end = start.getTime() + minutes * 60_000;
    const taken = busy.some((b) => b.start.getTime() < end && start.getTime() < b.end.getTime());
    return taken ? { ...base, available: false, reason: 'taken' } : { ...base, available: true };
  });
  return { date, timeZone: FIRM_TIME_ZONE, bookable: dayOpen, slots };
}

/** What the visitor reads when a chosen time cannot be booked (the API's 400 and 409 messages). */
export const bookingMessages = {
  notASlot: 'Please choose one of the listed times.',
  weekend: 'We are closed on weekends. Please choose a weekday.',
  past: 'That time has already passed. Please choose a later time.',
  beyondWindow: 'Please choose a date within the next 12 months.',
  taken: 'That time was just booked. Please choose another.',
} as const;

/**
 * Why `start` cannot be booked at `now`, judged in the firm's zone, or null when it can (whether it is
 * still free is the database's call). A slot is one of SPEC §9's wall-clock times exactly, to the
 * millisecond, so '9:15' and '9:00:30' are not slots.
 */
export function slotProblem(start: Date, now: Date): string | null {
  const date = firmDateOf(start);
  const time = firmTimeOf(start);
  if (!(timeSlots as readonly string[]).includes(time) || firmInstant(date, time).getTime() !== start.getTime()) return bookingMessages.notASlot;
  if (start.getTime() <= now.getTime()) return bookingMessages.past;
  if (isWeekend(date)) return bookingMessages.weekend;
  if (date > addDays(firmToday(now), BOOKING_WINDOW_DAYS)) return bookingMessages.beyondWindow;
  return null;
}
