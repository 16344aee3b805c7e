/**
 * Slot generation and the booking rules ("The server decides"). Runs in the
 * machine's zone and again under TZ=Asia/Tokyo and TZ=Pacific/Kiritimati (vitest.config.ts).
 */
import { describe, expect, it } from 'vitest';
import { bookingMessages, dayAvailability, slotProblem, type BusyInterval } from './availability.ts';
import { defaultBookingRules } from './rules.ts';

/** The default rules without their minimum notice: these tests judge the slots' own rules (rules.test.ts the notice). */
const rules = { ...defaultBookingRules, minimumNoticeMinutes: 0 };

const at = (iso: string) => new Date(iso);
const MIN = 60_000;
/** A busy stretch starting at `iso` for `minutes`. */
const busy = (iso: string, minutes: number): BusyInterval => ({ start: at(iso), end: new Date(at(iso).getTime() + minutes * MIN) });

// Monday 15 July 2030 (PDT, UTC-7); "now" is 08:00 the Friday before at the firm.
const monday = '2030-07-15';
const fridayBefore = at('2030-07-12T15:00:00Z');

describe('dayAvailability', () => {
  it('lists the 13 slots of SPEC §9 in order, with labels and UTC instants, all free on an empty future weekday', () => {
    const day = dayAvailability({ date: monday, now: fridayBefore, minutes: 30, busy: [], rules });
    expect(day.date).toBe(monday);
    expect(day.timeZone).toBe('America/Los_Angeles');
    expect(day.bookable).toBe(true);
    expect(day.slots.map((s) => s.time)).toEqual([
      '09:00',
      '09:30',
      '10:00',
      '10:30',
      '11:00',
      '11:30',
      '13:00',
      '13:30',
      '14:00',
      '14:30',
      '15:00',
      '15:30',
      '16:00',
    ]);
    expect(day.slots.map((s) => s.label)).toEqual([
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
    expect(day.slots[0]).toEqual({ time: '09:00', label: '9:00 AM', startsAt: '2030-07-15T16:00:00.000Z', available: true });
    expect(day.slots[12]).toEqual({ time: '16:00', label: '4:00 PM', startsAt: '2030-07-15T23:00:00.000Z', available: true });
    expect(day.slots.every((s) => s.available && s.reason === undefined)).toBe(true);
  });

  it('gives winter instants an hour later in UTC, and the Monday after spring-forward summer ones', () => {
    const winter = dayAvailability({ date: '2030-03-08', now: at('2030-03-01T00:00:00Z'), minutes: 30, busy: [], rules });
    const summer = dayAvailability({ date: '2030-03-11', now: at('2030-03-01T00:00:00Z'), minutes: 30, busy: [], rules });
    expect(winter.slots[0]!.startsAt).toBe('2030-03-08T17:00:00.000Z');
    expect(summer.slots[0]!.startsAt).toBe('2030-03-11T16:00:00.000Z');
    expect(winter.slots.map((s) => s.label)).toEqual(summer.slots.map((s) => s.label));
  });

  it('marks a slot taken when the consultation would overlap a busy stretch, counting its minutes', () => {
    // A 60-minute consultation booked at 9:00 holds 9:00-10:00.
    const held = [busy('2030-07-15T16:00:00Z', 60)];
    const thirty = dayAvailability({ date: monday, now: fridayBefore, minutes: 30, busy: held, rules });
    expect(thirty.slots.filter((s) => !s.available).map((s) => [s.time, s.reason])).toEqual([
      ['09:00', 'taken'],
      ['09:30', 'taken'],
    ]);
    // 10:00 only touches the end of the meeting (half-open intervals), so it is free.
    expect(thirty.slots.find((s) => s.time === '10:00')!.available).toBe(true);

    // A 45- or 60-minute request at 13:00 overlaps a meeting from 13:30; a 30-minute one does not.
    const afternoon = [busy('2030-07-15T20:30:00Z', 30)]; // 13:30-14:00
    const fortyFive = dayAvailability({ date: monday, now: fridayBefore, minutes: 45, busy: afternoon, rules });
    expect(fortyFive.slots.filter((s) => s.reason === 'taken').map((s) => s.time)).toEqual(['13:00', '13:30']);
    const sixty = dayAvailability({ date: monday, now: fridayBefore, minutes: 60, busy: afternoon, rules });
    expect(sixty.slots.filter((s) => s.reason === 'taken').map((s) => s.time)).toEqual(['13:00', '13:30']);
    const thirtyAfternoon = dayAvailability({ date: monday, now: fridayBefore, minutes: 30, busy: afternoon, rules });
    expect(thirtyAfternoon.slots.filter((s) => !s.available).map((s) => s.time)).toEqual(['13:30']);
  });

  it('ignores busy stretches on other days', () => {
    const day = dayAvailability({
      date: monday,
      now: fridayBefore,
      minutes: 60,
      busy: [busy('2030-07-16T16:00:00Z', 60), busy('2030-07-14T23:00:00Z', 60)],
      rules,
    });
    expect(day.slots.filter((s) => !s.available).map((s) => [s.time, s.reason])).toEqual([['11:30', 'hours']]);
  });

  it('marks the slots of today that have started as past, and keeps the rest', () => {
    // 10:15 at the firm on the Monday.
    const day = dayAvailability({ date: monday, now: at('2030-07-15T17:15:00Z'), minutes: 30, busy: [], rules });
    expect(day.bookable).toBe(true);
    expect(day.slots.filter((s) => s.reason === 'past').map((s) => s.time)).toEqual(['09:00', '09:30', '10:00']);
    expect(day.slots.filter((s) => s.available).map((s) => s.time)[0]).toBe('10:30');
    // A slot starting exactly now is past.
    const exactly = dayAvailability({ date: monday, now: at('2030-07-15T17:30:00Z'), minutes: 30, busy: [], rules });
    expect(exactly.slots.find((s) => s.time === '10:30')).toMatchObject({ available: false, reason: 'past' });
  });

  it('closes today once its last slot has started', () => {
    const day = dayAvailability({ date: monday, now: at('2030-07-15T23:00:00Z'), minutes: 30, busy: [], rules });
    expect(day.bookable).toBe(false);
    expect(day.slots.every((s) => !s.available && s.reason === 'past')).toBe(true);
    expect(day.message).toBe('No times are left on this day. Please choose another date.');
  });

  it('closes weekends and days beyond the window, and marks earlier days past', () => {
    for (const date of ['2030-07-13', '2030-07-14']) {
      const day = dayAvailability({ date, now: fridayBefore, minutes: 30, busy: [], rules });
      expect(day.bookable, date).toBe(false);
      expect(day.slots).toHaveLength(13);
      expect(
        day.slots.every((s) => !s.available && s.reason === 'closed'),
        date,
      ).toBe(true);
    }
    const beyond = dayAvailability({ date: '2031-07-14', now: fridayBefore, minutes: 30, busy: [], rules }); // today + 367
    expect(beyond.bookable).toBe(false);
    expect(beyond.slots.every((s) => s.reason === 'closed')).toBe(true);
    const last = dayAvailability({ date: '2031-07-11', now: fridayBefore, minutes: 30, busy: [], rules }); // today + 364, a Friday
    expect(last.bookable).toBe(true);
    const yesterday = dayAvailability({ date: '2030-07-11', now: fridayBefore, minutes: 30, busy: [], rules });
    expect(yesterday.bookable).toBe(false);
    expect(yesterday.slots.every((s) => !s.available && s.reason === 'past')).toBe(true);
  });

  it("answers for the firm's day to a visitor whose own date is already tomorrow", () => {
    // 22:00 Monday at the firm: Tuesday 14:00 in Tokyo, Tuesday 19:00 in Kiritimati. Monday is over, Tuesday is open.
    const now = at('2030-07-16T05:00:00Z');
    expect(dayAvailability({ date: '2030-07-15', now, minutes: 30, busy: [], rules }).bookable).toBe(false);
    const tuesday = dayAvailability({ date: '2030-07-16', now, minutes: 30, busy: [], rules });
    expect(tuesday.bookable).toBe(true);
    expect(tuesday.slots.every((s) => s.available)).toBe(true);
    expect(tuesday.slots[0]!.startsAt).toBe('2030-07-16T16:00:00.000Z');
  });

  it('refuses a string that is not a calendar date', () => {
    expect(() => dayAvailability({ date: '2030-02-30', now: fridayBefore, minutes: 30, busy: [], rules })).toThrow(RangeError);
  });
});

describe('slotProblem (the server re-checks the chosen time)', () => {
  const now = fridayBefore; // Friday 12 July 2030, 08:00 at the firm

  it('accepts every listed slot of a future weekday, however the instant is written', () => {
    for (const s of dayAvailability({ date: monday, now, minutes: 30, busy: [], rules }).slots)
      expect(slotProblem(at(s.startsAt), now, 30, rules), s.time).toBeNull();
    expect(slotProblem(at('2030-07-15T09:00:00-07:00'), now, 30, rules)).toBeNull();
    expect(slotProblem(at('2030-07-16T01:00:00+09:00'), now, 30, rules)).toBeNull(); // Tokyo's Tuesday 1 AM is the firm's Monday 9 AM
    expect(slotProblem(at('2030-07-12T09:00:00-07:00'), now, 30, rules)).toBeNull(); // later today
  });

  it('refuses times off the list: noon, quarter past, seconds, and a slot time read in another zone', () => {
    for (const iso of [
      '2030-07-15T12:00:00-07:00',
      '2030-07-15T09:15:00-07:00',
      '2030-07-15T09:00:30-07:00',
      '2030-07-15T09:00:00.001-07:00',
      '2030-07-15T08:30:00-07:00',
      '2030-07-15T16:30:00-07:00',
      '2030-07-15T09:00:00Z', // 9:00 in UTC is 2:00 AM at the firm
      '2030-07-15T09:00:00+09:00', // 9:00 in Tokyo is 5:00 PM the day before at the firm
    ]) {
      expect(slotProblem(at(iso), now, 30, rules), iso).toBe(bookingMessages.notASlot);
    }
  });

  it('refuses weekends, the past and dates beyond the window, with the message the modal shows', () => {
    expect(slotProblem(at('2030-07-13T09:00:00-07:00'), now, 30, rules)).toBe(bookingMessages.weekend);
    expect(slotProblem(at('2030-07-14T16:00:00-07:00'), now, 30, rules)).toBe(bookingMessages.weekend);
    expect(slotProblem(at('2030-07-11T09:00:00-07:00'), now, 30, rules)).toBe(bookingMessages.past);
    expect(slotProblem(at('2030-07-12T08:00:00-07:00'), at('2030-07-12T15:00:00Z'), 30, rules)).toBe(bookingMessages.notASlot);
    expect(slotProblem(at('2030-07-12T09:00:00-07:00'), at('2030-07-12T16:00:00Z'), 30, rules)).toBe(bookingMessages.past); // starts exactly now
    expect(slotProblem(at('2031-07-11T16:00:00-07:00'), now, 30, rules)).toBeNull(); // today + 364
    expect(slotProblem(at('2031-07-14T09:00:00-07:00'), now, 30, rules)).toBe(bookingMessages.beyondWindow(365)); // today + 367
    expect(bookingMessages.notASlot).toBe('Please choose one of the listed times.');
    expect(bookingMessages.weekend).toBe('We are closed on weekends. Please choose a weekday.');
    expect(bookingMessages.past).toBe('That time has already passed. Please choose a later time.');
    expect(bookingMessages.beyondWindow(365)).toBe('Please choose a date within the next 12 months.');
    expect(bookingMessages.beyondWindow(90)).toBe('Please choose a date within the next 90 days.');
    expect(bookingMessages.taken).toBe('That time was just booked. Please choose another.');
  });

  it('checks daylight-saving Mondays in firm time', () => {
    const march = at('2030-03-01T18:00:00Z');
    expect(slotProblem(at('2030-03-11T16:00:00Z'), march, 30, rules)).toBeNull(); // 9:00 PDT
    expect(slotProblem(at('2030-03-11T17:00:00Z'), march, 30, rules)).toBeNull(); // 10:00 PDT
    expect(slotProblem(at('2030-03-11T15:30:00Z'), march, 30, rules)).toBe(bookingMessages.notASlot); // 8:30 PDT
    expect(slotProblem(at('2030-03-08T16:00:00Z'), march, 30, rules)).toBe(bookingMessages.notASlot); // 8:00 PST the Friday before
    expect(slotProblem(at('2030-03-08T17:00:00Z'), march, 30, rules)).toBeNull(); // 9:00 PST
  });
});

describe('the booking rules: holidays, closures, minimum notice and consultation hours', () => {
  const defaults = defaultBookingRules;
  // Monday 23 November 2026, 08:00 at the firm (PST, UTC-8).
  const monday8am = at('2026-11-23T16:00:00Z');

  it('closes Thanksgiving and the day after, and says why; the Wednesday before stays open', () => {
    for (const [date, name] of [
      ['2026-11-26', 'Thanksgiving Day'],
      ['2026-11-27', 'the day after Thanksgiving'],
    ] as const) {
      const day = dayAvailability({ date, now: monday8am, minutes: 30, busy: [], rules: defaults });
      expect(day.bookable, date).toBe(false);
      expect(day.message).toBe(`We are closed for ${name}. Please choose another day.`);
      expect(day.slots.every((s) => s.reason === 'closed')).toBe(true);
      expect(slotProblem(at(`${date}T09:00:00-08:00`), monday8am, 30, defaults)).toBe(bookingMessages.holiday(name));
    }
    expect(dayAvailability({ date: '2026-11-25', now: monday8am, minutes: 30, busy: [], rules: defaults }).bookable).toBe(true);
    // Christmas on a Friday, and New Year's Day.
    expect(slotProblem(at('2026-12-25T10:00:00-08:00'), monday8am, 30, defaults)).toBe(bookingMessages.holiday('Christmas Day'));
    expect(slotProblem(at('2027-01-01T10:00:00-08:00'), monday8am, 30, defaults)).toBe(bookingMessages.holiday("New Year's Day"));
    // A firm that does not close for them takes bookings then.
    expect(slotProblem(at('2026-11-26T09:00:00-08:00'), monday8am, 30, { ...defaults, observeHolidays: false })).toBeNull();
  });

  it("closes the firm's own closures with its reason", () => {
    const rules = { ...defaults, closures: [{ from: '2026-12-02', to: '2026-12-02', reason: 'office move' }] };
    const day = dayAvailability({ date: '2026-12-02', now: monday8am, minutes: 30, busy: [], rules });
    expect(day.bookable).toBe(false);
    expect(day.message).toBe('We are closed that day (office move). Please choose another day.');
    expect(slotProblem(at('2026-12-02T09:00:00-08:00'), monday8am, 30, rules)).toBe(day.message);
    expect(slotProblem(at('2026-12-03T09:00:00-08:00'), monday8am, 30, rules)).toBeNull();
  });

  it('closes every day of a closure that spans several, its first and last included', () => {
    const rules = { ...defaults, closures: [{ from: '2026-12-07', to: '2026-12-09', reason: 'firm retreat' }] };
    const bookable = (date: string) => dayAvailability({ date, now: monday8am, minutes: 30, busy: [], rules }).bookable;
    expect(['2026-12-04', '2026-12-07', '2026-12-08', '2026-12-09', '2026-12-10'].map(bookable)).toEqual([true, false, false, false, true]);
    expect(slotProblem(at('2026-12-09T16:00:00-08:00'), monday8am, 30, rules)).toBe(bookingMessages.closure('firm retreat'));
  });

  it('says the booking window in days, one day included, and a year as 12 months', () => {
    expect(bookingMessages.beyondWindow(365)).toBe('Please choose a date within the next 12 months.');
    expect(bookingMessages.beyondWindow(60)).toBe('Please choose a date within the next 60 days.');
    expect(bookingMessages.beyondWindow(1)).toBe('Please choose a date within the next day.');
  });

  it('needs the minimum notice: at 8:00, 9:00 and 9:30 are too soon, 10:00 is the first', () => {
    const day = dayAvailability({ date: '2026-11-23', now: monday8am, minutes: 30, busy: [], rules: defaults });
    expect(day.bookable).toBe(true);
    expect(day.slots.filter((s) => !s.available).map((s) => [s.time, s.reason])).toEqual([
      ['09:00', 'notice'],
      ['09:30', 'notice'],
    ]);
    expect(slotProblem(at('2026-11-23T09:30:00-08:00'), monday8am, 30, defaults)).toBe('Please choose a time at least 2 hours from now.');
    expect(slotProblem(at('2026-11-23T10:00:00-08:00'), monday8am, 30, defaults)).toBeNull();
    // At 2:30 PM the last slot (4:00 PM) is too soon: the day is closed, and the next one open.
    const late = at('2026-11-23T22:30:00Z');
    const today = dayAvailability({ date: '2026-11-23', now: late, minutes: 30, busy: [], rules: defaults });
    expect(today.bookable).toBe(false);
    expect(today.message).toBe("No times are left on this day: we need at least 2 hours' notice. Please choose another date.");
    expect(today.slots.filter((s) => s.reason === 'notice').map((s) => s.time)).toEqual(['15:00', '15:30', '16:00']);
    expect(bookingMessages.notice(60)).toBe('Please choose a time at least 1 hour from now.');
    expect(bookingMessages.noneLeft(60)).toContain("1 hour's notice");
    expect(bookingMessages.notice(1440)).toBe('Please choose a time at least 1 day from now.');
  });

  it('keeps a consultation inside the consultation hours: nothing runs into the noon hour', () => {
    const reasons = (minutes: number) =>
      dayAvailability({ date: '2026-12-01', now: monday8am, minutes, busy: [], rules: defaults })
        .slots.filter((s) => !s.available)
        .map((s) => [s.time, s.reason]);
    expect(reasons(30)).toEqual([]);
    expect(reasons(45)).toEqual([['11:30', 'hours']]);
    expect(reasons(60)).toEqual([['11:30', 'hours']]);
    // 4:00 PM stays open for an hour-long consultation: the afternoon runs until 5:00 PM.
    expect(slotProblem(at('2026-12-01T16:00:00-08:00'), monday8am, 60, defaults)).toBeNull();
    expect(slotProblem(at('2026-12-01T11:30:00-08:00'), monday8am, 60, defaults)).toBe(
      'A 60-minute consultation at that time would run past our consultation hours. Please choose an earlier time.',
    );
    expect(slotProblem(at('2026-12-01T11:00:00-08:00'), monday8am, 60, defaults)).toBeNull();
  });

  it('takes the weekly hours as data: a Friday of mornings only, and a Saturday opened', () => {
    const hours = defaults.hours.map((day, weekday) =>
      weekday === 5 ? [{ start: '09:00', end: '12:00' }] : weekday === 6 ? [{ start: '10:00', end: '12:00' }] : day,
    );
    const rules = { ...defaults, hours };
    const friday = dayAvailability({ date: '2026-12-04', now: monday8am, minutes: 30, busy: [], rules });
    expect(friday.slots.filter((s) => s.available).map((s) => s.time)).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00', '11:30']);
    const saturday = dayAvailability({ date: '2026-12-05', now: monday8am, minutes: 30, busy: [], rules });
    expect(saturday.bookable).toBe(true);
    expect(saturday.slots.filter((s) => s.available).map((s) => s.time)).toEqual(['10:00', '10:30', '11:00', '11:30']);
    const closedWednesday = { ...defaults, hours: defaults.hours.map((day, weekday) => (weekday === 3 ? [] : day)) };
    expect(slotProblem(at('2026-12-02T09:00:00-08:00'), monday8am, 30, closedWednesday)).toBe(bookingMessages.noHours);
  });
});
