/**
 * The days a California law office is closed for a holiday (DOMAIN "Scheduling"): the eleven US
 * federal holidays (5 U.S.C. 6103), and the three more days California's courts close (Code of Civil
 * Procedure §135, Government Code §6700): Lincoln's Birthday, Cesar Chavez Day and the day after
 * Thanksgiving. Pure calendar arithmetic, no zone involved; browser-safe.
 *
 * A holiday on a Saturday is observed on the Friday before, one on a Sunday on the Monday after
 * (the federal rule, applied to all of them). Both days are closed: the holiday itself and the day it
 * is observed on, so no booking lands on either.
 */
import { addDays, parseFirmDate, type FirmDate } from '../firm-time.ts';

export interface Holiday {
  /** The weekday the office is closed for it. */
  date: FirmDate;
  name: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const day = (year: number, month: number, date: number): FirmDate => `${String(year).padStart(4, '0')}-${pad(month)}-${pad(date)}`;

/** 0 Sunday … 6 Saturday. */
export function weekdayOf(date: FirmDate): number {
  const [year, month, d] = parseFirmDate(date) ?? [Number.NaN, 1, 1];
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, d);
  return utc.getUTCDay();
}

/** The `nth` (1-based) `weekday` of a month; nth -1 is the last one. */
function nthWeekday(year: number, month: number, weekday: number, nth: number): FirmDate {
  if (nth > 0) {
    const first = day(year, month, 1);
    return addDays(first, ((weekday - weekdayOf(first) + 7) % 7) + (nth - 1) * 7);
  }
  const last = addDays(month === 12 ? day(year + 1, 1, 1) : day(year, month + 1, 1), -1);
  return addDays(last, -((weekdayOf(last) - weekday + 7) % 7));
}

/** Each holiday of `year` on its own date (before the weekend rule). */
function holidayDates(year: number): Holiday[] {
  const thanksgiving = nthWeekday(year, 11, 4, 4);
  return [
    { date: day(year, 1, 1), name: "New Year's Day" },
    { date: nthWeekday(year, 1, 1, 3), name: 'Martin Luther King Jr. Day' },
    { date: day(year, 2, 12), name: "Lincoln's Birthday" },
    { date: nthWeekday(year, 2, 1, 3), name: "Washington's Birthday (Presidents' Day)" },
    { date: day(year, 3, 31), name: 'Cesar Chavez Day' },
    { date: nthWeekday(year, 5, 1, -1), name: 'Memorial Day' },
    { date: day(year, 6, 19), name: 'Juneteenth' },
    { date: day(year, 7, 4), name: 'Independence Day' },
    { date: nthWeekday(year, 9, 1, 1), name: 'Labor Day' },
    { date: nthWeekday(year, 10, 1, 2), name: 'Columbus Day' },
    { date: day(year, 11, 11), name: 'Veterans Day' },
    { date: thanksgiving, name: 'Thanksgiving Day' },
    { date: addDays(thanksgiving, 1), name: 'the day after Thanksgiving' },
    { date: day(year, 12, 25), name: 'Christmas Day' },
  ];
}

const byYear = new Map<number, Map<FirmDate, string>>();

/** Every closed day of `year` (a holiday and the weekday it is observed on), with the holiday's name. */
function closedDays(year: number): Map<FirmDate, string> {
  let days = byYear.get(year);
  if (days) return days;
  days = new Map();
  // The year before and after too: New Year's Day on a Saturday is observed on 31 December.
  for (const holiday of [...holidayDates(year - 1), ...holidayDates(year), ...holidayDates(year + 1)]) {
    const weekday = weekdayOf(holiday.date);
    const observed = weekday === 6 ? addDays(holiday.date, -1) : weekday === 0 ? addDays(holiday.date, 1) : holiday.date;
    for (const date of new Set([holiday.date, observed])) if (date.startsWith(String(year).padStart(4, '0'))) days.set(date, holiday.name);
  }
  byYear.set(year, days);
  return days;
}

/** The holiday `date` is closed for, or null. */
export function holidayOn(date: FirmDate): string | null {
  const parsed = parseFirmDate(date);
  return parsed ? (closedDays(parsed[0]).get(date) ?? null) : null;
}

/** The closed weekdays of `year`, in date order (a holiday on a weekend appears as the weekday it is observed on). */
export function holidaysOf(year: number): Holiday[] {
  return [...closedDays(year)]
    .filter(([date]) => weekdayOf(date) !== 0 && weekdayOf(date) !== 6)
    .map(([date, name]) => ({ date, name }))
    .sort((a, b) => a.date.localeCompare(b.date));
}
