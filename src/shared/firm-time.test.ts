/**
 * The firm's clock and how its dates read. These run three times: in the `unit` project (the
 * machine's zone) and in `unit-tz-tokyo` / `unit-tz-kiritimati` (vitest.config.ts sets TZ), so an
 * answer that leaned on the process's own zone would fail in at least one of them.
 */
import { describe, expect, it } from 'vitest';
import { firm } from '../config/firm.ts';
import { timeSlots } from './constants.ts';
import {
  addDays,
  dateLabel,
  FIRM_TIME_ZONE,
  FIRM_TIME_ZONE_LABEL,
  firmDateOf,
  firmInstant,
  firmTimeOf,
  firmToday,
  firmWallClock,
  formatFirmDate,
  formatFirmDateTime,
  formatFirmTime,
  formatFirmTimeRange,
  isFirmDate,
  isWeekend,
  longDateLabel,
  monthLabel,
  parseFirmDate,
  slotLabel,
  timeWithZoneLabel,
  whenLabel,
} from './firm-time.ts';

const HOUR = 3_600_000;

/** The n-th Sunday of a month, by plain calendar arithmetic (independent of the code under test). */
function nthSunday(year: number, month: number, n: number): string {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  const day = 1 + ((7 - first) % 7) + (n - 1) * 7;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

describe('the zone this run uses', () => {
  it('is the one the vitest project set, when it set one', ({ task }) => {
    // Proves the unit-tz-* projects really run far from California (else they would test nothing new).
    const zone = process.env.TZ;
    if (task.file.projectName?.startsWith('unit-tz')) expect(zone).toMatch(/^(Asia\/Tokyo|Pacific\/Kiritimati)$/);
    const offsets: Record<string, number> = { 'Asia/Tokyo': -540, 'Pacific/Kiritimati': -840, UTC: 0 };
    if (zone) expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(zone);
    if (zone && zone in offsets) expect(new Date(Date.UTC(2030, 6, 15)).getTimezoneOffset()).toBe(offsets[zone]);
  });
});

describe('firm time zone', () => {
  it('is San Diego, declared with the firm, labelled for visitors', () => {
    expect(FIRM_TIME_ZONE).toBe('America/Los_Angeles');
    expect(FIRM_TIME_ZONE).toBe(firm.timeZone);
    expect(FIRM_TIME_ZONE_LABEL).toBe('Pacific Time (San Diego)');
  });
});

describe('firmInstant', () => {
  it('turns firm wall-clock time into the UTC instant (UTC-7 in summer, UTC-8 in winter)', () => {
    expect(firmInstant('2030-07-15', '09:00').toISOString()).toBe('2030-07-15T16:00:00.000Z');
    expect(firmInstant('2030-07-15', '16:00').toISOString()).toBe('2030-07-15T23:00:00.000Z');
    expect(firmInstant('2030-01-14', '09:00').toISOString()).toBe('2030-01-14T17:00:00.000Z');
    // 4 PM in winter is already the next day in UTC.
    expect(firmInstant('2030-01-14', '16:00').toISOString()).toBe('2030-01-15T00:00:00.000Z');
    expect(firmInstant('2030-01-14', '00:00').toISOString()).toBe('2030-01-14T08:00:00.000Z');
    expect(firmInstant('2030-01-14', '23:59').toISOString()).toBe('2030-01-15T07:59:00.000Z');
  });

  it('keeps 9:00 AM at 9:00 AM on the Monday after spring-forward (the UTC instant moves an hour earlier)', () => {
    // 2030: DST starts Sunday 10 March.
    expect(firmInstant('2030-03-08', '09:00').toISOString()).toBe('2030-03-08T17:00:00.000Z');
    expect(firmInstant('2030-03-11', '09:00').toISOString()).toBe('2030-03-11T16:00:00.000Z');
    // 2027: DST starts Sunday 14 March.
    expect(firmInstant('2027-03-12', '09:00').toISOString()).toBe('2027-03-12T17:00:00.000Z');
    expect(firmInstant('2027-03-15', '09:00').toISOString()).toBe('2027-03-15T16:00:00.000Z');
  });

  it('keeps 9:00 AM at 9:00 AM on the Monday after fall-back (the UTC instant moves an hour later)', () => {
    // 2026: DST ends Sunday 1 November; 2030: Sunday 3 November.
    expect(firmInstant('2026-10-30', '09:00').toISOString()).toBe('2026-10-30T16:00:00.000Z');
    expect(firmInstant('2026-11-02', '09:00').toISOString()).toBe('2026-11-02T17:00:00.000Z');
    expect(firmInstant('2030-11-01', '09:00').toISOString()).toBe('2030-11-01T16:00:00.000Z');
    expect(firmInstant('2030-11-04', '09:00').toISOString()).toBe('2030-11-04T17:00:00.000Z');
  });

  it('shifts every slot by exactly one hour across both changes, ten years running', () => {
    for (let year = 2026; year <= 2035; year++) {
      const spring = nthSunday(year, 3, 2);
      const fall = nthSunday(year, 11, 1);
      for (const time of timeSlots) {
        // Hours the firm is behind UTC at that slot: 8 in winter, 7 in summer.
        const behind = (date: string) => (firmInstant(date, time).getTime() - Date.parse(`${date}T${time}:00Z`)) / HOUR;
        expect(behind(addDays(spring, -2)), `${year} Friday before spring-forward ${time}`).toBe(8);
        expect(behind(addDays(spring, 1)), `${year} Monday after spring-forward ${time}`).toBe(7);
        expect(behind(addDays(fall, -2)), `${year} Friday before fall-back ${time}`).toBe(7);
        expect(behind(addDays(fall, 1)), `${year} Monday after fall-back ${time}`).toBe(8);
        const [springBefore, springAfter, fallBefore, fallAfter] = [addDays(spring, -2), addDays(spring, 1), addDays(fall, -2), addDays(fall, 1)].map((d) =>
          firmInstant(d, time),
        );
        for (const instant of [springBefore!, springAfter!, fallBefore!, fallAfter!]) expect(firmTimeOf(instant), `${year} ${time}`).toBe(time);
      }
    }
  });

  it('handles the change-over Sundays themselves (the hour that is skipped, the hour that repeats)', () => {
    // 10 March 2030: 01:59 PST is followed by 03:00 PDT.
    expect(firmInstant('2030-03-10', '01:30').toISOString()).toBe('2030-03-10T09:30:00.000Z');
    expect(firmInstant('2030-03-10', '03:00').toISOString()).toBe('2030-03-10T10:00:00.000Z');
    expect(firmInstant('2030-03-10', '09:00').toISOString()).toBe('2030-03-10T16:00:00.000Z');
    // 3 November 2030: 09:00 is PST again.
    expect(firmInstant('2030-11-03', '09:00').toISOString()).toBe('2030-11-03T17:00:00.000Z');
    expect(firmInstant('2030-11-03', '00:30').toISOString()).toBe('2030-11-03T07:30:00.000Z');
  });

  it('round-trips every slot of every day of a year through firmDateOf and firmTimeOf', () => {
    let date = '2031-01-01';
    for (let i = 0; i < 366; i++, date = addDays(date, 1)) {
      for (const time of timeSlots) {
        const instant = firmInstant(date, time);
        expect(firmDateOf(instant), `${date} ${time}`).toBe(date);
        expect(firmTimeOf(instant), `${date} ${time}`).toBe(time);
      }
    }
  });

  it('refuses what is not a date or a 24-hour time', () => {
    for (const date of ['2030-02-30', '2030-13-01', '2030-1-5', '05/06/2030', '', '2030-02-29'])
      expect(() => firmInstant(date, '09:00'), date).toThrow(RangeError);
    for (const time of ['9:00', '24:00', '09:60', '9 AM', '']) expect(() => firmInstant('2030-05-06', time), time).toThrow(RangeError);
  });
});

describe('firmDateOf, firmTimeOf, firmToday', () => {
  it("read the firm's day and time, not the process's or UTC's", () => {
    // 23:59 on 15 July in San Diego is already 16 July in UTC, in Tokyo and in Kiritimati.
    expect(firmDateOf(new Date('2030-07-16T06:59:00Z'))).toBe('2030-07-15');
    expect(firmTimeOf(new Date('2030-07-16T06:59:00Z'))).toBe('23:59');
    expect(firmDateOf(new Date('2030-07-16T07:00:00Z'))).toBe('2030-07-16');
    expect(firmTimeOf(new Date('2030-07-16T07:00:00Z'))).toBe('00:00');
    expect(firmTimeOf(new Date('2030-07-16T07:00:59.999Z'))).toBe('00:00');
    expect(firmToday(new Date('2030-01-01T07:59:59Z'))).toBe('2029-12-31');
    expect(firmToday(new Date('2030-01-01T08:00:00Z'))).toBe('2030-01-01');
  });

  it("gives a visitor in Tokyo on Tuesday morning the firm's Monday", () => {
    // 08:00 Tuesday 16 July 2030 in Tokyo (UTC+9) is 16:00 Monday 15 July in San Diego.
    const now = new Date('2030-07-16T08:00:00+09:00');
    expect(firmToday(now)).toBe('2030-07-15');
    expect(firmTimeOf(now)).toBe('16:00');
    expect(isWeekend(firmToday(now))).toBe(false);
    // And on Saturday morning in Kiritimati (UTC+14) it is still Friday afternoon at the firm.
    const saturday = new Date('2030-07-20T10:00:00+14:00');
    expect(firmToday(saturday)).toBe('2030-07-19');
    expect(firmTimeOf(saturday)).toBe('13:00');
  });
});

it('read the same day and time as Intl does, every 7 minutes 13 seconds through both change-over days and a year', () => {
  // firmParts reads the zone's offset once per quarter hour and keeps it: this holds it to Intl itself,
  // at instants that fall at every place inside a quarter hour, minute and second.
  const intl = new Intl.DateTimeFormat('en-CA', {
    timeZone: firm.timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  const read = (at: Date) => {
    const p = Object.fromEntries(intl.formatToParts(at).map((part) => [part.type, part.value]));
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
  };
  const step = (7 * 60 + 13) * 1000;
  const ranges = [
    ['2030-03-09T00:00:00Z', '2030-03-11T00:00:00Z'], // spring forward, Sunday 10 March
    ['2030-11-02T00:00:00Z', '2030-11-04T00:00:00Z'], // fall back, Sunday 3 November
    ['2029-12-31T00:00:00Z', '2031-01-01T00:00:00Z'],
  ];
  let checked = 0;
  for (const [from, to] of ranges) {
    for (let t = Date.parse(from!); t < Date.parse(to!); t += step, checked++) {
      const at = new Date(t);
      expect(`${firmDateOf(at)} ${firmTimeOf(at)}`, at.toISOString()).toBe(read(at));
    }
  }
  expect(checked).toBeGreaterThan(70_000);
  expect(() => firmDateOf(new Date(Number.NaN))).toThrow(RangeError);
});

describe('calendar helpers', () => {
  it('isWeekend knows Saturdays and Sundays', () => {
    expect(['2030-07-13', '2030-07-14', '2026-11-21', '2026-11-22'].map(isWeekend)).toEqual([true, true, true, true]);
    expect(['2030-07-15', '2030-07-16', '2030-07-17', '2030-07-18', '2030-07-19'].map(isWeekend)).toEqual([false, false, false, false, false]);
  });

  it('addDays is plain calendar arithmetic across months, leap days, years and change-over Sundays', () => {
    expect(addDays('2030-02-28', 1)).toBe('2030-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2030-12-31', 1)).toBe('2031-01-01');
    expect(addDays('2030-03-09', 1)).toBe('2030-03-10');
    expect(addDays('2030-03-10', 1)).toBe('2030-03-11');
    expect(addDays('2030-11-03', 1)).toBe('2030-11-04');
    expect(addDays('2030-03-01', -1)).toBe('2030-02-28');
    expect(addDays('2030-05-06', 365)).toBe('2031-05-06');
    expect(addDays('2030-05-06', 0)).toBe('2030-05-06');
  });

  it('parseFirmDate and isFirmDate accept real calendar days only', () => {
    expect(parseFirmDate('2028-02-29')).toEqual([2028, 2, 29]);
    expect(parseFirmDate('0099-01-01')).toEqual([99, 1, 1]);
    for (const bad of [
      '2030-02-29',
      '2030-02-30',
      '2030-04-31',
      '2030-00-10',
      '2030-13-01',
      '2030-01-00',
      '2030-1-1',
      '20300101',
      '2030-01-01T00:00',
      ' 2030-01-01',
      '',
    ]) {
      expect(isFirmDate(bad), bad).toBe(false);
    }
  });

  it('slotLabel writes the times as the modal shows them', () => {
    expect(timeSlots.map(slotLabel)).toEqual([
      '9:00 AM',
      '9:30 AM',
      '10:00 AM',
      '10:30 AM',
      '11:00 AM',
      '11:30 AM',
      '1:00 PM',
      '1:30 PM',
      '2:00 PM',
      '2:30 PM',
      '3:00 PM',
      '3:30 PM',
      '4:00 PM',
    ]);
    expect(slotLabel('00:15')).toBe('12:15 AM');
    expect(slotLabel('12:00')).toBe('12:00 PM');
  });
});

describe("how the firm's dates and times read", () => {
  // 2030: daylight time starts Sunday 10 March at 2:00 AM and ends Sunday 3 November at 2:00 AM.
  const fridayBeforeSpring = firmInstant('2030-03-08', '09:00'); // 17:00Z (PST)
  const mondayAfterSpring = firmInstant('2030-03-11', '09:00'); // 16:00Z (PDT)

  it('writes firm dates and months in words (booking modal)', () => {
    expect(longDateLabel('2026-06-01')).toBe('Monday, June 1, 2026');
    expect(longDateLabel('2026-12-31')).toBe('Thursday, December 31, 2026');
    expect(longDateLabel('2028-02-29')).toBe('Tuesday, February 29, 2028');
    expect(monthLabel('2026-06')).toBe('June 2026');
    expect(monthLabel('2027-01')).toBe('January 2027');
    expect(() => longDateLabel('2030-02-30')).toThrow(RangeError);
  });

  it("writes an instant's day as the firm's day, also when UTC has already moved on", () => {
    // 11:59 PM on 15 July in San Diego is 06:59Z on the 16th; a minute later it is the 16th at the firm too.
    expect(longDateLabel(new Date('2030-07-16T06:59:00Z'))).toBe('Monday, July 15, 2030');
    expect(longDateLabel(new Date('2030-07-16T07:00:00Z'))).toBe('Tuesday, July 16, 2030');
    // New Year's Eve: 11:59:59 PM PST is 07:59:59Z on 1 January.
    expect(longDateLabel(new Date('2030-01-01T07:59:59Z'))).toBe('Monday, December 31, 2029');
    expect(dateLabel('2030-01-01T07:59:59Z')).toBe('December 31, 2029');
    expect(dateLabel(new Date('2030-01-01T08:00:00Z'))).toBe('January 1, 2030');
  });

  it('says when a consultation is, with the zone named for visitors (booking modal, e-mails)', () => {
    expect(whenLabel(firmInstant('2026-06-08', '13:30'))).toBe('Monday, June 8, 2026 at 1:30 PM Pacific Time (San Diego)');
    expect(timeWithZoneLabel(firmInstant('2026-12-07', '16:00'))).toBe('4:00 PM Pacific Time (San Diego)');
    // 4:00 PM in winter is already the next day in UTC.
    expect(whenLabel(new Date('2026-12-08T00:00:00Z'))).toBe('Monday, December 7, 2026 at 4:00 PM Pacific Time (San Diego)');
  });

  it('keeps 9:00 AM at 9:00 AM on either side of a daylight-saving change', () => {
    expect(whenLabel(fridayBeforeSpring)).toBe('Friday, March 8, 2030 at 9:00 AM Pacific Time (San Diego)');
    expect(whenLabel(mondayAfterSpring)).toBe('Monday, March 11, 2030 at 9:00 AM Pacific Time (San Diego)');
    // The same UTC hour as the Friday's 9:00 is 10:00 at the firm after the change.
    expect(timeWithZoneLabel(new Date('2030-03-11T17:00:00Z'))).toBe('10:00 AM Pacific Time (San Diego)');
    expect(formatFirmDateTime(fridayBeforeSpring)).toBe('Fri, Mar 8, 2030 at 9:00 AM PST');
    expect(formatFirmDateTime(mondayAfterSpring)).toBe('Mon, Mar 11, 2030 at 9:00 AM PDT');
  });

  it('writes article and list dates, and nothing for a missing or broken one', () => {
    expect(dateLabel('2026-06-01T16:00:00.000Z')).toBe('June 1, 2026');
    // 11:30 PM on 31 May in San Diego.
    expect(dateLabel('2026-06-01T06:30:00.000Z')).toBe('May 31, 2026');
    for (const missing of [null, undefined, '', 'not a date']) expect(dateLabel(missing), String(missing)).toBeNull();
  });

  it('shows admin times with PDT in summer and PST in winter', () => {
    expect(formatFirmDate('2026-07-14T17:30:00.000Z')).toBe('Tue, Jul 14, 2026');
    expect(formatFirmTime('2026-07-14T17:30:00.000Z')).toBe('10:30 AM PDT');
    expect(formatFirmTime('2026-12-01T17:30:00.000Z')).toBe('9:30 AM PST');
    expect(formatFirmDateTime('2026-12-01T17:30:00.000Z')).toBe('Tue, Dec 1, 2026 at 9:30 AM PST');
    expect(formatFirmDateTime(new Date('2026-12-01T17:30:00.000Z'))).toBe('Tue, Dec 1, 2026 at 9:30 AM PST');
    // 5:30 PM in San Diego is already the next day in UTC.
    expect(formatFirmDate('2026-07-15T00:30:00.000Z')).toBe('Tue, Jul 14, 2026');
    expect(formatFirmDateTime('2026-07-15T00:30:00.000Z')).toBe('Tue, Jul 14, 2026 at 5:30 PM PDT');
    expect(formatFirmTimeRange('2026-07-14T17:30:00.000Z', 60)).toBe('10:30 AM – 11:30 AM PDT');
  });

  it('names the zone of each end of a range that crosses a change, and tells the repeated hour apart', () => {
    // 1:30 AM PST on 10 March 2030 plus an hour is 3:30 AM PDT: 2:30 never happens.
    expect(formatFirmTimeRange('2030-03-10T09:30:00Z', 60)).toBe('1:30 AM – 3:30 AM PDT');
    // 3 November 2030: 1:30 AM happens twice, first in PDT, then in PST.
    expect(formatFirmTime('2030-11-03T08:30:00Z')).toBe('1:30 AM PDT');
    expect(formatFirmTime('2030-11-03T09:30:00Z')).toBe('1:30 AM PST');
  });

  it("gives the firm's wall clock for what takes a local time plus a zone (.ics, Graph, datetime-local)", () => {
    expect(firmWallClock(new Date('2030-05-06T17:30:45Z'))).toBe('2030-05-06T10:30:45');
    expect(firmWallClock(new Date('2030-01-01T07:59:59Z'))).toBe('2029-12-31T23:59:59');
    expect(firmWallClock(fridayBeforeSpring)).toBe('2030-03-08T09:00:00');
    expect(firmWallClock(mondayAfterSpring)).toBe('2030-03-11T09:00:00');
    expect(firmWallClock(new Date('2030-11-03T08:30:00Z'))).toBe('2030-11-03T01:30:00');
    expect(firmWallClock(new Date('2030-11-03T09:30:00Z'))).toBe('2030-11-03T01:30:00');
  });
});
