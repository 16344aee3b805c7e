/**
 * The days a visitor may book (rules.ts) and the holidays the firm closes for (holidays.ts). Runs in
 * the machine's zone and again under TZ=Asia/Tokyo and TZ=Pacific/Kiritimati (vitest.config.ts).
 */
import { describe, expect, it } from 'vitest';
import { firmToday } from '../firm-time.ts';
import { holidayOn, holidaysOf } from './holidays.ts';
import { dayClosure, defaultBookingRules, firstBookableDay } from './rules.ts';

const rules = { ...defaultBookingRules, minimumNoticeMinutes: 0 };
const open = (date: string, now: Date) => dayClosure(date, now, rules) === null;

describe('dayClosure: the days a visitor may book (without minimum notice)', () => {
  // Monday 15 July 2030, 10:00 at the firm.
  const now = new Date('2030-07-15T17:00:00Z');

  it('takes weekdays from firm today to today + 365 days', () => {
    expect(open('2030-07-15', now)).toBe(true);
    expect(open('2030-07-16', now)).toBe(true);
    expect(open('2031-07-15', now)).toBe(true); // today + 365, a Tuesday
    expect(open('2031-07-16', now)).toBe(false); // one day beyond the window
    expect(open('2030-07-12', now)).toBe(false); // last Friday
    expect(open('2030-07-20', now)).toBe(false); // Saturday
    expect(open('2030-07-21', now)).toBe(false); // Sunday
    expect(open('2030-02-30', now)).toBe(false);
    expect(open('soon', now)).toBe(false);
  });

  it('keeps today open while its last slot (4:00 PM) is still ahead', () => {
    expect(open('2030-07-15', new Date('2030-07-15T22:59:59Z'))).toBe(true); // 15:59:59
    expect(open('2030-07-15', new Date('2030-07-15T23:00:00Z'))).toBe(false); // 16:00
    expect(open('2030-07-16', new Date('2030-07-15T23:00:00Z'))).toBe(true);
  });

  it("judges today in the firm's zone: late Monday evening in San Diego, Tuesday is not today yet", () => {
    // 21:00 Monday at the firm = 13:00 Tuesday in Tokyo, 18:00 Tuesday in Kiritimati.
    const late = new Date('2030-07-16T04:00:00Z');
    expect(firmToday(late)).toBe('2030-07-15');
    expect(open('2030-07-15', late)).toBe(false);
    expect(open('2030-07-16', late)).toBe(true);
    expect(open('2031-07-15', late)).toBe(true);
    expect(open('2031-07-16', late)).toBe(false);
  });
});

describe('the minimum notice', () => {
  it('keeps today open while a slot is at least the notice ahead, and names the first day open', () => {
    const rules2h = defaultBookingRules;
    // Friday 17 July 2030: at 1:59 PM, 4:00 PM is two hours and a minute ahead; at 2:01 PM it is not.
    expect(dayClosure('2030-07-19', new Date('2030-07-19T20:59:00Z'), rules2h)).toBeNull();
    expect(dayClosure('2030-07-19', new Date('2030-07-19T21:01:00Z'), rules2h)).toEqual({ reason: 'too-soon' });
    // The next day open is then the Monday.
    expect(firstBookableDay(new Date('2030-07-19T21:01:00Z'), rules2h)).toBe('2030-07-22');
  });

  it('is given in whole days too: a day of notice closes today and opens tomorrow from the same time', () => {
    const rules = { ...defaultBookingRules, minimumNoticeMinutes: 1440 };
    const now = new Date('2030-07-15T17:00:00Z'); // Monday 10:00
    expect(dayClosure('2030-07-15', now, rules)).toEqual({ reason: 'too-soon' });
    expect(dayClosure('2030-07-16', now, rules)).toBeNull();
  });
});

describe('holidays', () => {
  it('lists the federal and California court holidays of 2026 on the weekdays the office is closed', () => {
    expect(holidaysOf(2026)).toEqual([
      { date: '2026-01-01', name: "New Year's Day" },
      { date: '2026-01-19', name: 'Martin Luther King Jr. Day' },
      { date: '2026-02-12', name: "Lincoln's Birthday" },
      { date: '2026-02-16', name: "Washington's Birthday (Presidents' Day)" },
      { date: '2026-03-31', name: 'Cesar Chavez Day' },
      { date: '2026-05-25', name: 'Memorial Day' },
      { date: '2026-06-19', name: 'Juneteenth' },
      { date: '2026-07-03', name: 'Independence Day' }, // 4 July is a Saturday
      { date: '2026-09-07', name: 'Labor Day' },
      { date: '2026-10-12', name: 'Columbus Day' },
      { date: '2026-11-11', name: 'Veterans Day' },
      { date: '2026-11-26', name: 'Thanksgiving Day' },
      { date: '2026-11-27', name: 'the day after Thanksgiving' },
      { date: '2026-12-25', name: 'Christmas Day' },
    ]);
  });

  it('moves a Sunday holiday to the Monday, a Saturday one to the Friday, across a year end', () => {
    expect(holidayOn('2027-12-24')).toBe('Christmas Day'); // 25 December 2027 is a Saturday
    expect(holidayOn('2027-12-31')).toBe("New Year's Day"); // 1 January 2028 is a Saturday
    expect(holidayOn('2022-12-26')).toBe('Christmas Day'); // 25 December 2022 was a Sunday
    expect(holidayOn('2022-12-25')).toBe('Christmas Day');
    expect(holidayOn('2028-06-19')).toBe('Juneteenth'); // a Monday
    expect(holidayOn('2028-07-04')).toBe('Independence Day');
    expect(holidayOn('2027-11-25')).toBe('Thanksgiving Day');
    expect(holidayOn('2027-11-26')).toBe('the day after Thanksgiving');
    expect(holidayOn('2026-11-25')).toBeNull();
    expect(holidayOn('2026-12-24')).toBeNull();
    expect(holidayOn('not a date')).toBeNull();
  });

  it('closes them to bookings, and a year ahead they are closed too', () => {
    const now = new Date('2026-11-24T16:00:00Z');
    expect(firmToday(now)).toBe('2026-11-24');
    expect(dayClosure('2026-11-26', now, rules)).toEqual({ reason: 'holiday', name: 'Thanksgiving Day' });
    expect(dayClosure('2027-05-31', now, rules)).toEqual({ reason: 'holiday', name: 'Memorial Day' });
    expect(dayClosure('2026-11-25', now, rules)).toBeNull();
  });
});
