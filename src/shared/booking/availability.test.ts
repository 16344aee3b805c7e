/**
 * Slot generation and the booking rules ("The server decides"). Runs in the
 * machine's zone and again under TZ=Asia/Tokyo and TZ=Pacific/Kiritimati (vitest.config.ts).
 */
import { describe, expect, it } from 'vitest';
import { bookingMessages, dayAvailability, slotProblem, type BusyInterval } from './availability.ts';

const at = (iso: string) => new Date(iso);
const MIN = 60_000;
/** A busy stretch starting at `iso` for `minutes`. */
const busy = (iso: string, minutes: number): BusyInterval => ({ start: at(iso), end: new Date(at(iso).getTime() + minutes * MIN) });

// Monday 15 July 2030 (PDT, UTC-7); "now" is 08:00 the Friday before at the firm.
const monday = '2030-07-15';
const fridayBefore = at('2030-07-12T15:00:00Z');

describe('dayAvailability', () => {
  it('lists the 13 slots of SPEC §9 in order, with labels and UTC instants, all free on an empty future weekday', () => {
    const day = dayAvailability({ date: monday, now: fridayBefore, minutes: 30, busy: [] });
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
    const winter = dayAvailability({ date: '2030-03-08', now: at('2030-03-01T00:00:00Z'), minutes: 30, busy: [] });
    const summer = dayAvailability({ date: '2030-03-11', now: at('2030-03-01T00:00:00Z'), minutes: 30, busy: [] });
    expect(winter.slots[0]!.startsAt).toBe('2030-03-08T17:00:00.000Z');
    expect(summer.slots[0]!.startsAt).toBe('2030-03-11T16:00:00.000Z');
    expect(winter.slots.map((s) => s.label)).toEqual(summer.slots.map((s) => s.label));
  });

  it('marks a slot taken when the consultation would overlap a busy stretch, counting its minutes', () => {
    // A 60-minute consultation booked at 9:00 holds 9:00-10:00.
    const held = [busy('2030-07-15T16:00:00Z', 60)];
    const thirty = dayAvailability({ date: monday, now: fridayBefore, minutes: 30, busy: held });
    expect(thirty.slots.filter((s) => !s.available).map((s) => [s.time, s.reason])).toEqual([
      ['09:00', 'taken'],
      ['09:30', 'taken'],
    ]);
    // 10:00 only touches the end of the meeting (half-open intervals), so it is free.
    expect(thirty.slots.find((s) => s.time === '10:00')!.available).toBe(true);

    // A 45- or 60-minute request at 13:00 overlaps a meeting from 13:30; a 30-minute one does not.
    const afternoon = [busy('2030-07-15T20:30:00Z', 30)]; // 13:30-14:00
    const fortyFive = dayAvailability({ date: monday, now: fridayBefore, minutes: 45, busy: afternoon });
    expect(fortyFive.slots.filter((s) => !s.available).map((s) => s.time)).toEqual(['13:00', '13:30']);
    const sixty = dayAvailability({ date: monday, now: fridayBefore, minutes: 60, busy: afternoon });
    expect(sixty.slots.filter((s) => !s.available).map((s) => s.time)).toEqual(['13:00', '13:30']);
    const thirtyAfternoon = dayAvailability({ date: monday, now: fridayBefore, minutes: 30, busy: afternoon });
    expect(thirtyAfternoon.slots.filter((s) => !s.available).map((s) => s.time)).toEqual(['13:30']);
  });

  it('ignores busy stretches on other days', () => {
    const day = dayAvailability({ date: monday, now: fridayBefore, minutes: 60, busy: [busy('2030-07-16T16:00:00Z', 60), busy('2030-07-14T23:00:00Z', 60)] });
    expect(day.slots.every((s) => s.available)).toBe(true);
  });

  it('marks the slots of today that have started as past, and keeps the rest', () => {
    // 10:15 at the firm on the Monday.
    const day = dayAvailability({ date: monday, now: at('2030-07-15T17:15:00Z'), minutes: 30, busy: [] });
    expect(day.bookable).toBe(true);
    expect(day.slots.filter((s) => s.reason === 'past').map((s) => s.time)).toEqual(['09:00', '09:30', '10:00']);
    expect(day.slots.filter((s) => s.available).map((s) => s.time)[0]).toBe('10:30');
    // A slot starting exactly now is past.
    const exactly = dayAvailability({ date: monday, now: at('2030-07-15T17:30:00Z'), minutes: 30, busy: [] });
    expect(exactly.slots.find((s) => s.time === '10:30')).toMatchObject({ available: false, reason: 'past' });
  });

  it('closes today once its last slot has started', () => {
    const day = dayAvailability({ date: monday, now: at('2030-07-15T23:00:00Z'), minutes: 30, busy: [] });
    expect(day.bookable).toBe(false);
    expect(day.slots.every((s) => !s.available && s.reason === 'closed')).toBe(true);
  });

  it('closes weekends and days beyond the window, and marks earlier days past', () => {
    for (const date of ['2030-07-13', '2030-07-14']) {
      const day = dayAvailability({ date, now: fridayBefore, minutes: 30, busy: [] });
      expect(day.bookable, date).toBe(false);
      expect(day.slots).toHaveLength(13);
      expect(
        day.slots.every((s) => !s.available && s.reason === 'closed'),
        date,
      ).toBe(true);
    }
    const beyond = dayAvailability({ date: '2031-07-14', now: fridayBefore, minutes: 30, busy: [] }); // today + 367
    expect(beyond.bookable).toBe(false);
    expect(beyond.slots.every((s) => s.reason === 'closed')).toBe(true);
    const last = dayAvailability({ date: '2031-07-11', now: fridayBefore, minutes: 30, busy: [] }); // today + 364, a Friday
    expect(last.bookable).toBe(true);
    const yesterday = dayAvailability({ date: '2030-07-11', now: fridayBefore, minutes: 30, busy: [] });
    expect(yesterday.bookable).toBe(false);
    expect(yesterday.slots.every((s) => !s.available && s.reason === 'past')).toBe(true);
  });

  it("answers for the firm's day to a visitor whose own date is already tomorrow", () => {
    // 22:00 Monday at the firm: Tuesday 14:00 in Tokyo, Tuesday 19:00 in Kiritimati. Monday is over, Tuesday is open.
    const now = at('2030-07-16T05:00:00Z');
    expect(dayAvailability({ date: '2030-07-15', now, minutes: 30, busy: [] }).bookable).toBe(false);
    const tuesday = dayAvailability({ date: '2030-07-16', now, minutes: 30, busy: [] });
    expect(tuesday.bookable).toBe(true);
    expect(tuesday.slots.every((s) => s.available)).toBe(true);
    expect(tuesday.slots[0]!.startsAt).toBe('2030-07-16T16:00:00.000Z');
  });

  it('refuses a string that is not a calendar date', () => {
    expect(() => dayAvailability({ date: '2030-02-30', now: fridayBefore, minutes: 30, busy: [] })).toThrow(RangeError);
  });
});

describe('slotProblem (the server re-checks the chosen time)', () => {
  const now = fridayBefore; // Friday 12 July 2030, 08:00 at the firm

  it('accepts every listed slot of a future weekday, however the instant is written', () => {
    for (const s of dayAvailability({ date: monday, now, minutes: 30, busy: [] }).slots) expect(slotProblem(at(s.startsAt), now), s.time).toBeNull();
    expect(slotProblem(at('2030-07-15T09:00:00-07:00'), now)).toBeNull();
    expect(slotProblem(at('2030-07-16T01:00:00+09:00'), now)).toBeNull(); // Tokyo's Tuesday 1 AM is the firm's Monday 9 AM
    expect(slotProblem(at('2030-07-12T09:00:00-07:00'), now)).toBeNull(); // later today
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
      expect(slotProblem(at(iso), now), iso).toBe(bookingMessages.notASlot);
    }
  });

  it('refuses weekends, the past and dates beyond the window, with the message the modal shows', () => {
    expect(slotProblem(at('2030-07-13T09:00:00-07:00'), now)).toBe(bookingMessages.weekend);
    expect(slotProblem(at('2030-07-14T16:00:00-07:00'), now)).toBe(bookingMessages.weekend);
    expect(slotProblem(at('2030-07-11T09:00:00-07:00'), now)).toBe(bookingMessages.past);
    expect(slotProblem(at('2030-07-12T08:00:00-07:00'), at('2030-07-12T15:00:00Z'))).toBe(bookingMessages.notASlot);
    expect(slotProblem(at('2030-07-12T09:00:00-07:00'), at('2030-07-12T16:00:00Z'))).toBe(bookingMessages.past); // starts exactly now
    expect(slotProblem(at('2031-07-11T16:00:00-07:00'), now)).toBeNull(); // today + 364
    expect(slotProblem(at('2031-07-14T09:00:00-07:00'), now)).toBe(bookingMessages.beyondWindow); // today + 367
    expect(bookingMessages).toEqual({
      notASlot: 'Please choose one of the listed times.',
      weekend: 'We are closed on weekends. Please choose a weekday.',
      past: 'That time has already passed. Please choose a later time.',
      beyondWindow: 'Please choose a date within the next 12 months.',
      taken: 'That time was just booked. Please choose another.',
    });
  });

  it('checks daylight-saving Mondays in firm time', () => {
    const march = at('2030-03-01T18:00:00Z');
    expect(slotProblem(at('2030-03-11T16:00:00Z'), march)).toBeNull(); // 9:00 PDT
    expect(slotProblem(at('2030-03-11T17:00:00Z'), march)).toBeNull(); // 10:00 PDT
    expect(slotProblem(at('2030-03-11T15:30:00Z'), march)).toBe(bookingMessages.notASlot); // 8:30 PDT
    expect(slotProblem(at('2030-03-08T16:00:00Z'), march)).toBe(bookingMessages.notASlot); // 8:00 PST the Friday before
    expect(slotProblem(at('2030-03-08T17:00:00Z'), march)).toBeNull(); // 9:00 PST
  });
});
