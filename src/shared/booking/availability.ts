/**
 * Which of a day's 13 slots (SPEC §9) a visitor can still book, and why not, under the firm's booking
 * rules (rules.ts). Pure and browser-safe: the API answers GET /api/appointments/availability with it
 * and refuses a booking with `slotProblem`; the booking modal uses the same types and messages. `busy`
 * comes from the database (the slot claims of docs/decisions/008).
 */
import { timeSlots } from '../constants.ts';
import { FIRM_TIME_ZONE, firmDateOf, firmInstant, firmTimeOf, slotLabel, type FirmDate } from '../firm-time.ts';
import { type BookingRules, type DayClosure, dayClosure, earliestStart, fitsHours } from './rules.ts';

export interface SlotAvailability {
  /** Firm wall-clock time, '09:00'. */
  time: string;
  /** '9:00 AM'. */
  label: string;
  /** The instant, ISO UTC: what the modal sends as `scheduledDate`. */
  startsAt: string;
  available: boolean;
  /** past; taken; closed (the whole day); notice (too soon); hours (would run past the consultation hours). */
  reason?: 'past' | 'taken' | 'closed' | 'notice' | 'hours';
}

export interface DayAvailability {
  date: FirmDate;
  timeZone: string;
  /** false for a day closed to bookings (rules.ts: past, weekend, holiday, closure, beyond the window). */
  bookable: boolean;
  /** Why the day is closed, in the visitor's words ('We are closed for Thanksgiving Day. …'). */
  message?: string;
  /** Always the 13 slots of SPEC §9, in order. */
  slots: SlotAvailability[];
}

export interface BusyInterval {
  start: Date;
  end: Date;
}

/** '2 hours', '90 minutes', '1 day'. */
export function noticeLabel(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? '1 day' : `${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? '1 hour' : `${minutes / 60} hours`;
  return `${minutes} minutes`;
}

/** What the visitor reads when a day or a time cannot be booked (the modal, and the API's 400 and 409 messages). */
export const bookingMessages = {
  notASlot: 'Please choose one of the listed times.',
  weekend: 'We are closed on weekends. Please choose a weekday.',
  noHours: 'We do not hold consultations on that day. Please choose another day.',
  holiday: (name: string) => `We are closed for ${name}. Please choose another day.`,
  closure: (reason: string) => `We are closed that day (${reason}). Please choose another day.`,
  past: 'That time has already passed. Please choose a later time.',
  notice: (minutes: number) => `Please choose a time at least ${noticeLabel(minutes)} from now.`,
  hours: (minutes: number) => `A ${minutes}-minute consultation at that time would run past our consultation hours. Please choose an earlier time.`,
  beyondWindow: (days: number) => `Please choose a date within the next ${days === 365 ? '12 months' : days === 1 ? 'day' : `${days} days`}.`,
  noneLeft: (minutes: number) => {
    if (minutes === 0) return 'No times are left on this day. Please choose another date.';
    const label = noticeLabel(minutes);
    return `No times are left on this day: we need at least ${label.endsWith('s') ? `${label}'` : `${label}'s`} notice. Please choose another date.`;
  },
  taken: 'That time was just booked. Please choose another.',
} as const;

/** The visitor's message for a closed day. */
export function closureMessage(closure: DayClosure, rules: BookingRules): string {
  switch (closure.reason) {
    case 'weekend':
      return bookingMessages.weekend;
    case 'no-hours':
      return bookingMessages.noHours;
    case 'holiday':
      return bookingMessages.holiday(closure.name);
    case 'closure':
      return bookingMessages.closure(closure.name);
    case 'beyond':
      return bookingMessages.beyondWindow(rules.windowDays);
    case 'past':
      return bookingMessages.past;
    case 'too-soon':
      return bookingMessages.noneLeft(rules.minimumNoticeMinutes);
  }
}

/**
 * A slot is available when the day is open, the slot starts no sooner than the minimum notice, the
 * consultation ([start, start + minutes)) ends inside the day's consultation hours and overlaps no
 * busy interval. Intervals are half-open: a 9:00-9:30 meeting leaves 9:30 free.
 */
export function dayAvailability({
  date,
  now,
  minutes,
  busy,
  rules,
}: {
  date: FirmDate;
  now: Date;
  minutes: number;
  busy: readonly BusyInterval[];
  rules: BookingRules;
}): DayAvailability {
  const closure = dayClosure(date, now, rules);
  const earliest = earliestStart(now, rules);
  const slots = timeSlots.map((time): SlotAvailability => {
    const start = firmInstant(date, time);
    const base = { time, label: slotLabel(time), startsAt: start.toISOString() };
    if (closure && closure.reason !== 'too-soon') return { ...base, available: false, reason: closure.reason === 'past' ? 'past' : 'closed' };
    if (start.getTime() <= now.getTime()) return { ...base, available: false, reason: 'past' };
    if (start.getTime() < earliest) return { ...base, available: false, reason: 'notice' };
    if (!fitsHours(date, time, minutes, rules)) return { ...base, available: false, reason: 'hours' };
    const end = start.getTime() + minutes * 60_000;
    const taken = busy.some((b) => b.start.getTime() < end && start.getTime() < b.end.getTime());
    return taken ? { ...base, available: false, reason: 'taken' } : { ...base, available: true };
  });
  return { date, timeZone: FIRM_TIME_ZONE, bookable: !closure, ...(closure && { message: closureMessage(closure, rules) }), slots };
}

/**
 * Why a consultation of `minutes` starting at `start` cannot be booked at `now`, judged in the firm's
 * zone under `rules`, or null when it can (whether it is still free is the database's call). A slot is
 * one of SPEC §9's wall-clock times exactly, to the millisecond, so '9:15' and '9:00:30' are not slots.
 */
export function slotProblem(start: Date, now: Date, minutes: number, rules: BookingRules): string | null {
  const date = firmDateOf(start);
  const time = firmTimeOf(start);
  if (!(timeSlots as readonly string[]).includes(time) || firmInstant(date, time).getTime() !== start.getTime()) return bookingMessages.notASlot;
  if (start.getTime() <= now.getTime()) return bookingMessages.past;
  if (start.getTime() < earliestStart(now, rules)) return bookingMessages.notice(rules.minimumNoticeMinutes);
  const closure = dayClosure(date, now, rules);
  if (closure) return closureMessage(closure, rules);
  if (!fitsHours(date, time, minutes, rules)) return bookingMessages.hours(minutes);
  return null;
}
