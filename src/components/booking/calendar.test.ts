import { describe, expect, it } from 'vitest';
import { defaultBookingRules as rules } from '../../shared/booking/rules.ts';
import { addMonths, calendarRange, dayMessage, dayOfWeek, dayState, daysInMonth, firstSelectableDay, monthGrid, moveByKey } from './calendar.ts';

// 2026-06-03 is a Wednesday; San Diego is on PDT (UTC-7) in June.
const wednesdayNoon = new Date('2026-06-03T19:00:00Z'); // 12:00 PDT

describe('calendar arithmetic in firm dates (no time zone involved)', () => {
  it('knows weekdays and month lengths', () => {
    expect(dayOfWeek('2026-06-01')).toBe(1); // Monday
    expect(dayOfWeek('2030-01-01')).toBe(2); // Tuesday
    expect(dayOfWeek('2026-06-07')).toBe(0); // Sunday
    expect(daysInMonth('2026-02')).toBe(28);
    expect(daysInMonth('2028-02')).toBe(29);
    expect(daysInMonth('2026-12')).toBe(31);
  });

  it('lays a month out in Sunday-first weeks', () => {
    const june = monthGrid('2026-06');
    expect(june).toHaveLength(5);
    expect(june[0]).toEqual([null, '2026-06-01', '2026-06-02', '2026-06-03', '2026-06-04', '2026-06-05', '2026-06-06']);
    expect(june[4]).toEqual(['2026-06-28', '2026-06-29', '2026-06-30', null, null, null, null]);
    // February 2026 starts on a Sunday and fills exactly four weeks.
    expect(monthGrid('2026-02')).toHaveLength(4);
    expect(monthGrid('2026-02').flat().filter(Boolean)).toHaveLength(28);
  });

  it('adds months, keeping the day or the end of a shorter month', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
    expect(addMonths('2026-01-15', -1)).toBe('2025-12-15');
    expect(addMonths('2026-06-10', 12)).toBe('2027-06-10');
    expect(addMonths('2026-06-10', -12)).toBe('2025-06-10');
  });
});

describe('which days a visitor may pick (SPEC §5: no past days, no Saturdays or Sundays)', () => {
  it('refuses past days, weekends and days beyond the booking window', () => {
    expect(dayState('2026-06-03', wednesdayNoon, rules)).toEqual({ disabled: false });
    expect(dayState('2026-06-08', wednesdayNoon, rules)).toEqual({ disabled: false });
    expect(dayState('2026-06-02', wednesdayNoon, rules)).toEqual({ disabled: true, reason: 'past' });
    expect(dayState('2026-06-06', wednesdayNoon, rules)).toEqual({ disabled: true, reason: 'closed on weekends' });
    expect(dayState('2026-06-07', wednesdayNoon, rules)).toEqual({ disabled: true, reason: 'closed on weekends' });
    expect(dayState('2027-06-03', wednesdayNoon, rules)).toEqual({ disabled: false }); // today + 365
    expect(dayState('2027-06-04', wednesdayNoon, rules)).toEqual({ disabled: true, reason: 'not yet open for booking' });
  });

  it("judges today by the firm's clock: after the last slot (4:00 PM) today is over", () => {
    const lateAfternoon = new Date('2026-06-03T23:30:00Z'); // 16:30 PDT, still June 3 in San Diego
    expect(dayState('2026-06-03', lateAfternoon, rules)).toEqual({ disabled: true, reason: 'no times left' });
    // 14:30 PDT: the last slot (4:00 PM) is less than the two hours' notice ahead.
    expect(dayState('2026-06-03', new Date('2026-06-03T21:30:00Z'), rules)).toEqual({ disabled: true, reason: 'no times left' });
    expect(dayState('2026-06-03', new Date('2026-06-03T20:59:00Z'), rules)).toEqual({ disabled: false });
    // 03:00Z on June 4 is 20:00 on June 3 in San Diego: June 4 is tomorrow there, not today.
    const evening = new Date('2026-06-04T03:00:00Z');
    expect(dayState('2026-06-03', evening, rules)).toEqual({ disabled: true, reason: 'no times left' });
    expect(dayState('2026-06-04', evening, rules)).toEqual({ disabled: false });
  });

  it('closes holidays, naming them, and says why in a sentence when one is chosen', () => {
    const november = new Date('2026-11-24T18:00:00Z'); // Tuesday 10:00 PST
    expect(dayState('2026-11-25', november, rules)).toEqual({ disabled: false });
    expect(dayState('2026-11-26', november, rules)).toEqual({ disabled: true, reason: 'closed for Thanksgiving Day' });
    expect(dayState('2026-11-27', november, rules)).toEqual({ disabled: true, reason: 'closed for the day after Thanksgiving' });
    expect(dayMessage('2026-11-26', november, rules)).toBe('We are closed for Thanksgiving Day. Please choose another day.');
    expect(dayMessage('2026-11-25', november, rules)).toBeNull();
    // From Wednesday evening the first day to pick is the Monday: Thursday and Friday are closed.
    expect(firstSelectableDay(new Date('2026-11-26T03:00:00Z'), rules)).toBe('2026-11-30');
  });

  it('starts the focus on the first day that can be picked', () => {
    expect(firstSelectableDay(wednesdayNoon, rules)).toBe('2026-06-03');
    expect(firstSelectableDay(new Date('2026-06-06T00:30:00Z'), rules)).toBe('2026-06-08'); // Friday 17:30 PDT: next Monday
    expect(firstSelectableDay(new Date('2026-06-06T18:00:00Z'), rules)).toBe('2026-06-08'); // Saturday
  });

  it("follows the firm's own rules: its closures, its hours, its horizon", () => {
    const closedWeek = { ...rules, closures: [{ from: '2026-06-08', to: '2026-06-10', reason: 'Firm retreat' }] };
    expect(dayState('2026-06-09', wednesdayNoon, closedWeek)).toEqual({ disabled: true, reason: 'closed: Firm retreat' });
    expect(dayState('2026-06-11', wednesdayNoon, closedWeek)).toEqual({ disabled: false });
    expect(dayMessage('2026-06-08', wednesdayNoon, closedWeek)).toBe('We are closed that day (Firm retreat). Please choose another day.');
    const noFridays = { ...rules, hours: rules.hours.map((h, day) => (day === 5 ? [] : h)) };
    expect(dayState('2026-06-05', wednesdayNoon, noFridays)).toEqual({ disabled: true, reason: 'no consultations that day' });
    const twoMonths = { ...rules, windowDays: 60 };
    expect(calendarRange(wednesdayNoon, twoMonths)).toEqual({ today: '2026-06-03', min: '2026-06-01', max: '2026-08-31' });
    expect(dayState('2026-08-03', wednesdayNoon, twoMonths)).toEqual({ disabled: true, reason: 'not yet open for booking' });
  });

  it('shows from the first of this month to the end of the last bookable month', () => {
    expect(calendarRange(wednesdayNoon, rules)).toEqual({ today: '2026-06-03', min: '2026-06-01', max: '2027-06-30' });
    // 2026-01-01T05:00Z is still New Year's Eve in San Diego.
    expect(calendarRange(new Date('2026-01-01T05:00:00Z'), rules)).toMatchObject({ today: '2025-12-31', min: '2025-12-01' });
  });
});

describe('keyboard movement in the grid (WAI-ARIA APG date picker)', () => {
  const min = '2026-06-01';
  const max = '2027-06-30';
  const move = (date: string, key: string, shift = false) => moveByKey(date, key, shift, min, max);

  it('moves by day, week, month and year, and to the ends of the week', () => {
    expect(move('2026-06-10', 'ArrowRight')).toBe('2026-06-11');
    expect(move('2026-06-10', 'ArrowLeft')).toBe('2026-06-09');
    expect(move('2026-06-10', 'ArrowDown')).toBe('2026-06-17');
    expect(move('2026-06-10', 'ArrowUp')).toBe('2026-06-03');
    expect(move('2026-06-30', 'ArrowRight')).toBe('2026-07-01');
    expect(move('2026-06-10', 'Home')).toBe('2026-06-07'); // Sunday
    expect(move('2026-06-10', 'End')).toBe('2026-06-13'); // Saturday
    expect(move('2026-06-10', 'PageDown')).toBe('2026-07-10');
    expect(move('2026-07-31', 'PageUp')).toBe('2026-06-30');
    expect(move('2026-06-10', 'PageDown', true)).toBe('2027-06-10');
  });

  it('stays inside the range the picker shows', () => {
    expect(move('2026-06-01', 'ArrowLeft')).toBe(min);
    expect(move('2026-06-03', 'ArrowUp')).toBe(min);
    expect(move('2026-06-10', 'PageUp')).toBe(min);
    expect(move('2027-06-30', 'ArrowRight')).toBe(max);
    expect(move('2027-06-10', 'PageDown')).toBe(max);
  });

  it('ignores other keys', () => {
    expect(move('2026-06-10', 'Enter')).toBeNull();
    expect(move('2026-06-10', 'a')).toBeNull();
  });
});
