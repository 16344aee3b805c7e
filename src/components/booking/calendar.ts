/**
 * The booking date picker's calendar arithmetic (SPEC §5 Booking form: past days, Saturdays and
 * Sundays disabled). Every day is a firm date, 'YYYY-MM-DD' in America/Los_Angeles, handled as plain
 * calendar text: nothing here reads the browser's time zone, so a visitor in Tokyo or Kiritimati sees
 * the firm's days (DOMAIN.md Scheduling). Day-of-week and month lengths come from Date.UTC, which
 * involves no zone.
 */
import { closureMessage } from '../../shared/booking/availability.ts';
import { type BookingRules, dayClosure, firstBookableDay } from '../../shared/booking/rules.ts';
import { addDays, firmToday, type FirmDate, type FirmMonth } from '../../shared/firm-time.ts';

function parts(date: FirmDate): [number, number, number] {
  const [y = 0, m = 1, d = 1] = date.split('-').map(Number);
  return [y, m, d];
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const utcNoon = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d, 12));

export const monthOf = (date: FirmDate): FirmMonth => date.slice(0, 7);
export const firstOfMonth = (month: FirmMonth): FirmDate => `${month}-01`;

/** 0 = Sunday ... 6 = Saturday. */
export function dayOfWeek(date: FirmDate): number {
  const [y, m, d] = parts(date);
  return utcNoon(y, m, d).getUTCDay();
}

export function daysInMonth(month: FirmMonth): number {
  const [y, m] = parts(`${month}-01`);
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

export function lastOfMonth(month: FirmMonth): FirmDate {
  return `${month}-${pad(daysInMonth(month))}`;
}

/** The same day n months later (or earlier), clamped to the end of a shorter month (Jan 31 + 1 = Feb 28). */
export function addMonths(date: FirmDate, n: number): FirmDate {
  const [y, m, d] = parts(date);
  const index = y * 12 + (m - 1) + n;
  const month = `${pad(Math.floor(index / 12), 4)}-${pad((index % 12) + 1)}`;
  return `${month}-${pad(Math.min(d, daysInMonth(month)))}`;
}

/** The month's weeks, Sunday first (US calendars); null where a cell belongs to another month. */
export function monthGrid(month: FirmMonth): (FirmDate | null)[][] {
  const first = firstOfMonth(month);
  const cells: (FirmDate | null)[] = Array.from({ length: dayOfWeek(first) }, () => null);
  for (let day = 1; day <= daysInMonth(month); day++) cells.push(`${month}-${pad(day)}`);
  while (cells.length % 7) cells.push(null);
  const weeks: (FirmDate | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

export const weekdayNames = [
  { short: 'Su', long: 'Sunday' },
  { short: 'Mo', long: 'Monday' },
  { short: 'Tu', long: 'Tuesday' },
  { short: 'We', long: 'Wednesday' },
  { short: 'Th', long: 'Thursday' },
  { short: 'Fr', long: 'Friday' },
  { short: 'Sa', long: 'Saturday' },
] as const;

/** The days the picker can show and move to: from the first of this month to the end of the window's month. */
export function calendarRange(now: Date, rules: BookingRules): { today: FirmDate; min: FirmDate; max: FirmDate } {
  const today = firmToday(now);
  return { today, min: firstOfMonth(monthOf(today)), max: lastOfMonth(monthOf(addDays(today, rules.windowDays))) };
}

export type DayState = { disabled: false } | { disabled: true; reason: string };

/**
 * Whether a visitor may pick the day (the shared rules, `dayClosure`: not past, a day with
 * consultation hours, no holiday or closure, inside the booking window; today only while a slot is far
 * enough ahead), and why not, in a few words for the day's label ('closed for Thanksgiving Day').
 */
export function dayState(date: FirmDate, now: Date, rules: BookingRules): DayState {
  const closure = dayClosure(date, now, rules);
  if (!closure) return { disabled: false };
  switch (closure.reason) {
    case 'past':
      return { disabled: true, reason: 'past' };
    case 'too-soon':
      return { disabled: true, reason: 'no times left' };
    case 'weekend':
      return { disabled: true, reason: 'closed on weekends' };
    case 'no-hours':
      return { disabled: true, reason: 'no consultations that day' };
    case 'beyond':
      return { disabled: true, reason: 'not yet open for booking' };
    case 'holiday':
      return { disabled: true, reason: `closed for ${closure.name}` };
    case 'closure':
      return { disabled: true, reason: `closed: ${closure.name}` };
  }
}

/** Why the day cannot be booked, in a full sentence (shown when such a day is chosen), or null. */
export function dayMessage(date: FirmDate, now: Date, rules: BookingRules): string | null {
  const closure = dayClosure(date, now, rules);
  return closure && closureMessage(closure, rules);
}

/** The first day a visitor may pick, where the picker puts its focus when nothing is chosen yet. */
export function firstSelectableDay(now: Date, rules: BookingRules): FirmDate {
  return firstBookableDay(now, rules);
}

/**
 * Where a key moves the focused day (WAI-ARIA APG date picker grid): arrows by day and week, Home and
 * End to the start and end of the week, PageUp/PageDown by month (with Shift, by year). Null for any
 * other key. The result stays inside [min, max].
 */
export function moveByKey(date: FirmDate, key: string, shiftKey: boolean, min: FirmDate, max: FirmDate): FirmDate | null {
  let next: FirmDate;
  switch (key) {
    case 'ArrowLeft':
      next = addDays(date, -1);
      break;
    case 'ArrowRight':
      next = addDays(date, 1);
      break;
    case 'ArrowUp':
      next = addDays(date, -7);
      break;
    case 'ArrowDown':
      next = addDays(date, 7);
      break;
    case 'Home':
      next = addDays(date, -dayOfWeek(date));
      break;
    case 'End':
      next = addDays(date, 6 - dayOfWeek(date));
      break;
    case 'PageUp':
      next = addMonths(date, shiftKey ? -12 : -1);
      break;
    case 'PageDown':
      next = addMonths(date, shiftKey ? 12 : 1);
      break;
    default:
      return null;
  }
  return next < min ? min : next > max ? max : next;
}
