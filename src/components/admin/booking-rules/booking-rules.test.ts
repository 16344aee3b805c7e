import { describe, expect, it } from 'vitest';
import { defaultBookingRulesSettings } from '../../../shared/schemas/booking-rules.ts';
import { availabilitySummary, draftErrors, draftOf, hasChanges, isPastClosure, payloadOf, withBreak } from './booking-rules.ts';

const today = '2030-06-03';
const defaults = () => draftOf(defaultBookingRulesSettings);

describe('the live summary', () => {
  it("says today's rules in the firm's words", () => {
    expect(availabilitySummary(defaults(), today)).toBe(
      'Open Mon–Fri 9:00 AM–12:00 PM and 1:00 PM–5:00 PM Pacific Time (San Diego); closed on court holidays; book 2 hours to 365 days ahead',
    );
  });

  it('groups the weekdays with the same hours, leaves out closed days, and counts the closures to come', () => {
    const draft = defaults();
    for (const day of ['monday', 'tuesday', 'wednesday', 'thursday'] as const) draft.hours[day] = [{ start: '09:00', end: '17:00' }];
    draft.hours.friday = [];
    draft.observeHolidays = false;
    draft.minimumNoticeHours = '24';
    draft.bookingHorizonDays = '60';
    draft.closures = [
      { key: 'a', from: '2030-05-01', to: '2030-05-02', reason: 'Past' },
      { key: 'b', from: '2030-06-03', to: '2030-06-03', reason: 'Today' },
      { key: 'c', from: '2030-07-01', to: '2030-07-05', reason: 'Retreat' },
    ];
    expect(availabilitySummary(draft, today)).toBe(
      'Open Mon–Thu 9:00 AM–5:00 PM Pacific Time (San Diego); open on court holidays; book 24 hours to 60 days ahead; 2 closures to come',
    );
    // Monday and Wednesday alike but not neighbours: not grouped.
    draft.hours.tuesday = [{ start: '09:00', end: '12:00' }];
    draft.minimumNoticeHours = '0';
    draft.bookingHorizonDays = '1';
    expect(availabilitySummary(draft, today)).toBe(
      'Open Mon 9:00 AM–5:00 PM, Tue 9:00 AM–12:00 PM, Wed–Thu 9:00 AM–5:00 PM Pacific Time (San Diego); open on court holidays; book up to 1 day ahead; 2 closures to come',
    );
  });

  it('says when no day is open, and leaves out a horizon the form would refuse', () => {
    const draft = defaults();
    for (const day of Object.keys(draft.hours) as (keyof typeof draft.hours)[]) draft.hours[day] = [];
    draft.bookingHorizonDays = 'sixty';
    expect(availabilitySummary(draft, today)).toBe('Closed every weekday: no consultation can be booked; closed on court holidays');
  });
});

describe('a break in the hours', () => {
  it('takes the lunch hour when the range spans it, else the middle of the range', () => {
    expect(withBreak({ start: '09:00', end: '17:00' })).toEqual([
      { start: '09:00', end: '12:00' },
      { start: '13:00', end: '17:00' },
    ]);
    expect(withBreak({ start: '13:00', end: '17:00' })).toEqual([
      { start: '13:00', end: '14:30' },
      { start: '15:30', end: '17:00' },
    ]);
    expect(withBreak({ start: '09:00', end: '10:30' })).toEqual([
      { start: '09:00', end: '09:30' },
      { start: '10:00', end: '10:30' },
    ]);
    expect(withBreak({ start: '09:00', end: '10:00' })).toBeNull();
  });
});

describe('the draft and the payload', () => {
  it('sends numbers as typed, and refuses what the server would, keyed as the server keys it', () => {
    const draft = defaults();
    expect(hasChanges(draft, defaults())).toBe(false);
    expect(draftErrors(draft)).toEqual({});
    draft.minimumNoticeHours = '2.5';
    draft.bookingHorizonDays = '';
    draft.hours.monday = [{ start: '12:00', end: '10:00' }];
    draft.closures = [{ key: 'x', from: '2030-07-02', to: '2030-07-01', reason: '' }];
    expect(payloadOf(draft)).toMatchObject({ minimumNoticeHours: Number.NaN, bookingHorizonDays: Number.NaN });
    expect(hasChanges(draft, defaults())).toBe(true);
    expect(draftErrors(draft)).toEqual({
      'hours.monday.0.end': 'The end must be later than the start',
      minimumNoticeHours: 'Minimum notice must be a whole number of hours',
      bookingHorizonDays: 'Booking horizon must be a whole number of days',
      'closures.0.to': 'The last day must be on or after the first day',
      'closures.0.reason': 'Reason is required',
    });
  });

  it('knows a past closure by its last day', () => {
    expect(isPastClosure({ to: '2030-06-02' }, today)).toBe(true);
    expect(isPastClosure({ to: '2030-06-03' }, today)).toBe(false);
    expect(isPastClosure({ to: '' }, today)).toBe(false);
  });
});
