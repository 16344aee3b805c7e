/**
 * When the firm takes consultations (issue 18; DOMAIN "Scheduling"): its consultation hours by
 * weekday, the holidays it closes for, its own closures, the least notice it needs and how far ahead a
 * visitor may book. Browser-safe: the date picker, GET /api/appointments/availability and the
 * server's refusal of a booking all judge with these functions, so they agree.
 *
 * A consultation starts at one of SPEC §9's slots and must end inside the same interval of
 * consultation hours: with the default hours (9:00-12:00 and 1:00-5:00 PM) a 60-minute consultation
 * can start at 11:00 but not at 11:30, which would run into the noon hour.
 */
import { timeSlots } from '../constants.ts';
import { addDays, firmInstant, firmToday, isFirmDate, type FirmDate } from '../firm-time.ts';
import { holidayOn, weekdayOf } from './holidays.ts';

/** Wall-clock times in the firm's zone, 'HH:MM', start inclusive, end exclusive. */
export interface HoursInterval {
  start: string;
  end: string;
}

/** Days the firm is closed on its own account, `from` to `to` inclusive (firm dates). */
export interface Closure {
  from: FirmDate;
  to: FirmDate;
  reason: string;
}

export interface BookingRules {
  /** Consultation hours by weekday, 0 Sunday … 6 Saturday; no interval: closed that day. */
  hours: readonly (readonly HoursInterval[])[];
  /** Closed on the US federal and California court holidays (holidays.ts). */
  observeHolidays: boolean;
  /** The firm's own closures (a retreat, a move): first and last day, both closed, and what a visitor reads. */
  closures: readonly Closure[];
  /** The earliest a consultation may start, in minutes after the booking. */
  minimumNoticeMinutes: number;
  /** How far ahead a visitor may book: days after firm today. */
  windowDays: number;
}

const weekday: readonly HoursInterval[] = [
  { start: '09:00', end: '12:00' },
  { start: '13:00', end: '17:00' },
];

/** SPEC §9's 13 weekday slots, the holidays, two hours' notice (Cal.com's default), a year ahead. */
export const defaultBookingRules: BookingRules = {
  hours: [[], weekday, weekday, weekday, weekday, weekday, []],
  observeHolidays: true,
  closures: [],
  minimumNoticeMinutes: 120,
  windowDays: 365,
};

/** The firm's own closure that covers `date`, if any (the first listed, when several do). */
export const closureOn = (date: FirmDate, rules: Pick<BookingRules, 'closures'>): Closure | undefined =>
  rules.closures.find((c) => c.from <= date && date <= c.to);

/** Why a whole day cannot be booked. */
export type DayClosure =
  /** too-soon: today, with no slot left at least the minimum notice ahead. */
  | { reason: 'past' | 'too-soon' | 'beyond' | 'weekend' | 'no-hours' }
  /** `name`: the holiday's, or the firm's own reason for a closure. */
  | { reason: 'holiday' | 'closure'; name: string };

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Whether a consultation of `minutes` starting at `time` ends inside one of the day's intervals. */
export function fitsHours(date: FirmDate, time: string, minutes: number, rules: BookingRules): boolean {
  const start = minutesOf(time);
  return (rules.hours[weekdayOf(date)] ?? []).some((i) => minutesOf(i.start) <= start && start + minutes <= minutesOf(i.end));
}

/** The earliest instant a consultation may start when booked at `now`. */
export const earliestStart = (now: Date, rules: BookingRules) => now.getTime() + rules.minimumNoticeMinutes * 60_000;

/**
 * Why `date` is closed to bookings at `now`, or null when it is open (some slot of it may still be
 * taken or too soon: that is the slot's reason). Today counts while one of its slots is far enough ahead.
 */
export function dayClosure(date: FirmDate, now: Date, rules: BookingRules): DayClosure | null {
  if (!isFirmDate(date)) return { reason: 'past' };
  const today = firmToday(now);
  if (date < today) return { reason: 'past' };
  if (date > addDays(today, rules.windowDays)) return { reason: 'beyond' };
  const own = closureOn(date, rules);
  if (own) return { reason: 'closure', name: own.reason };
  const day = weekdayOf(date);
  if ((rules.hours[day] ?? []).length === 0) return { reason: day === 0 || day === 6 ? 'weekend' : 'no-hours' };
  const holiday = rules.observeHolidays ? holidayOn(date) : null;
  if (holiday) return { reason: 'holiday', name: holiday };
  const earliest = earliestStart(now, rules);
  const ahead = (time: string) => {
    const start = firmInstant(date, time).getTime();
    return start > now.getTime() && start >= earliest;
  };
  if (!timeSlots.some((time) => fitsHours(date, time, 30, rules) && ahead(time))) return { reason: 'too-soon' };
  return null;
}

/** The first day from firm today a visitor may book (within two weeks), or today when none is. */
export function firstBookableDay(now: Date, rules: BookingRules): FirmDate {
  const today = firmToday(now);
  for (let i = 0; i < 14; i++) if (!dayClosure(addDays(today, i), now, rules)) return addDays(today, i);
  return today;
}
