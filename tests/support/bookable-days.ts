/**
 * The days the tests book on: days the firm takes consultations (no weekend, no holiday or
 * closure) under the rules a new database starts with (src/shared/booking/rules.ts
 * defaultBookingRules, which migration 0013 stores). A test that picked "the next weekday" booked
 * Thanksgiving once holidays closed (issue 18). Judged as from the day before, so a day in a test's
 * fixed-clock future (2030) is judged the same as one next week: whether it is past, too soon or
 * beyond the window is each test's own business.
 */
import { dayClosure, defaultBookingRules } from '../../src/shared/booking/rules.ts';
import { addDays, firmInstant, type FirmDate } from '../../src/shared/firm-time.ts';

/** Whether the firm takes consultations on `date`. */
export const isBookableDay = (date: FirmDate): boolean => dayClosure(date, firmInstant(addDays(date, -1), '00:00'), defaultBookingRules) === null;

/** The n-th bookable day (0: the first) on or after `from`. */
export function nthBookableDay(from: FirmDate, n = 0): FirmDate {
  let date = from;
  while (!isBookableDay(date)) date = addDays(date, 1);
  for (let left = n; left > 0; ) {
    date = addDays(date, 1);
    if (isBookableDay(date)) left--;
  }
  return date;
}
