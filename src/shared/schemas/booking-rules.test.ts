/** The firm's availability as the admin sends it (decision 032): what is accepted, each refusal's field and words, and the rules made of it. */
import { describe, expect, it } from 'vitest';
import { defaultBookingRules } from '../booking/rules.ts';
import { bookingRulesInput, defaultBookingRulesSettings, hoursTimes, rulesOf, settingsOf, type BookingRulesSettings } from './booking-rules.ts';

const valid: BookingRulesSettings = structuredClone(defaultBookingRulesSettings);

/** The field messages of a refused body (as api/http/errors.ts names them: dotted paths). */
function refusal(body: unknown): Record<string, string> {
  const result = bookingRulesInput.safeParse(body);
  if (result.success) throw new Error('accepted');
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

const withHours = (day: string, hours: unknown) => ({ ...valid, hours: { ...valid.hours, [day]: hours } });

describe('bookingRulesInput', () => {
  it("stores today's code values: Monday to Friday 9-12 and 1-5, holidays, two hours, a year", () => {
    expect(defaultBookingRulesSettings).toEqual({
      hours: Object.fromEntries(
        ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [
          d,
          [
            { start: '09:00', end: '12:00' },
            { start: '13:00', end: '17:00' },
          ],
        ]),
      ),
      observeHolidays: true,
      minimumNoticeHours: 2,
      bookingHorizonDays: 365,
      closures: [],
    });
    expect(rulesOf(defaultBookingRulesSettings)).toEqual(defaultBookingRules);
    expect(bookingRulesInput.parse(valid)).toEqual(valid);
  });

  it('offers the half hours from 9:00 AM to 5:00 PM', () => {
    expect(hoursTimes).toEqual([
      '09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '12:00', '12:30', '13:00',
      '13:30', '14:00', '14:30', '15:00', '15:30', '16:00', '16:30', '17:00',
    ]); // biome-ignore format: one line per hour reads better
  });

  it('takes a day closed (no range), one range, or two around a break, and trims reasons', () => {
    const body = {
      ...withHours('friday', []),
      hours: { ...withHours('friday', []).hours, monday: [{ start: '09:00', end: '17:00' }] },
      closures: [{ from: '2030-12-24', to: '2030-12-31', reason: '  Holiday break ' }],
    };
    const parsed = bookingRulesInput.parse(body);
    expect(parsed.hours.friday).toEqual([]);
    expect(parsed.closures).toEqual([{ from: '2030-12-24', to: '2030-12-31', reason: 'Holiday break' }]);
    const rules = rulesOf(parsed);
    expect(rules.hours[5]).toEqual([]);
    expect(rules.hours[1]).toEqual([{ start: '09:00', end: '17:00' }]);
    expect(rules.hours[0]).toEqual([]);
    expect(rules.hours[6]).toEqual([]);
    expect(settingsOf(rules)).toEqual(parsed);
  });

  it('refuses times off the grid, an end before its start, overlapping ranges, three ranges and weekend hours, naming the field', () => {
    expect(refusal(withHours('monday', [{ start: '08:00', end: '12:00' }]))).toEqual({
      'hours.monday.0.start': 'Start must be a half hour from 9:00 AM to 5:00 PM',
    });
    expect(refusal(withHours('monday', [{ start: '09:15', end: '17:30' }]))).toEqual({
      'hours.monday.0.start': 'Start must be a half hour from 9:00 AM to 5:00 PM',
      'hours.monday.0.end': 'End must be a half hour from 9:00 AM to 5:00 PM',
    });
    expect(refusal(withHours('tuesday', [{ start: '12:00', end: '12:00' }]))).toEqual({ 'hours.tuesday.0.end': 'The end must be later than the start' });
    expect(
      refusal(
        withHours('wednesday', [
          { start: '09:00', end: '13:00' },
          { start: '12:30', end: '17:00' },
        ]),
      ),
    ).toEqual({ 'hours.wednesday.1.start': 'The second range must start when or after the first one ends' });
    const three = Array.from({ length: 3 }, (_, i) => ({ start: hoursTimes[i * 2]!, end: hoursTimes[i * 2 + 1]! }));
    expect(refusal(withHours('thursday', three))).toEqual({ 'hours.thursday': 'At most 2 ranges a day (one before and one after a break)' });
    expect(refusal(withHours('saturday', [{ start: '09:00', end: '12:00' }]))).toEqual({ hours: 'Consultations are held on weekdays only (Monday to Friday)' });
    expect(refusal({ ...valid, hours: { monday: [] } })['hours.tuesday']).toBe('Hours are required for each weekday');
  });

  it('keeps the notice and the horizon in range, the notice shorter than the horizon', () => {
    expect(refusal({ ...valid, minimumNoticeHours: -1 })).toEqual({ minimumNoticeHours: 'Minimum notice must be from 0 to 720 hours' });
    expect(refusal({ ...valid, minimumNoticeHours: 1.5 })).toEqual({ minimumNoticeHours: 'Minimum notice must be a whole number of hours' });
    expect(refusal({ ...valid, minimumNoticeHours: '2' })).toEqual({ minimumNoticeHours: 'Minimum notice must be a whole number of hours' });
    expect(refusal({ ...valid, bookingHorizonDays: 0 })).toEqual({ bookingHorizonDays: 'Booking horizon must be from 1 to 730 days' });
    expect(refusal({ ...valid, bookingHorizonDays: 731 })).toEqual({ bookingHorizonDays: 'Booking horizon must be from 1 to 730 days' });
    expect(refusal({ ...valid, minimumNoticeHours: 48, bookingHorizonDays: 2 })).toEqual({
      minimumNoticeHours: 'The minimum notice must be shorter than the booking horizon, or no day could be booked',
    });
    expect(bookingRulesInput.safeParse({ ...valid, minimumNoticeHours: 47, bookingHorizonDays: 2 }).success).toBe(true);
    expect(refusal({ ...valid, observeHolidays: 'yes' })).toEqual({ observeHolidays: 'Court holidays must be true or false' });
  });

  it('refuses closures with impossible or reversed days, no reason, longer than a year, or more than 200', () => {
    const closure = (c: object) => refusal({ ...valid, closures: [{ from: '2030-07-01', to: '2030-07-02', reason: 'Retreat', ...c }] });
    expect(closure({ from: '2030-02-30' })).toEqual({ 'closures.0.from': 'First day must be a date (YYYY-MM-DD)' });
    expect(closure({ to: '07/02/2030' })).toEqual({ 'closures.0.to': 'Last day must be a date (YYYY-MM-DD)' });
    expect(closure({ from: '0099-01-01' })).toEqual({ 'closures.0.from': 'First day must be a date (YYYY-MM-DD)' });
    expect(closure({ to: '2030-06-30' })).toEqual({ 'closures.0.to': 'The last day must be on or after the first day' });
    expect(closure({ to: '2031-07-02' })).toEqual({ 'closures.0.to': 'A closure lasts at most 366 days' });
    expect(closure({ reason: '   ' })).toEqual({ 'closures.0.reason': 'Reason is required' });
    expect(closure({ reason: 'x'.repeat(101) })).toEqual({ 'closures.0.reason': 'Reason must be at most 100 characters' });
    const many = Array.from({ length: 201 }, () => ({ from: '2030-07-01', to: '2030-07-01', reason: 'Closed' }));
    expect(refusal({ ...valid, closures: many })).toEqual({ closures: 'At most 200 closures; remove past ones first' });
    expect(bookingRulesInput.safeParse({ ...valid, closures: many.slice(1) }).success).toBe(true);
    // A closure of one day, and one of exactly 366.
    expect(bookingRulesInput.safeParse({ ...valid, closures: [{ from: '2030-07-01', to: '2031-07-01', reason: 'Sabbatical' }] }).success).toBe(true);
  });
});
