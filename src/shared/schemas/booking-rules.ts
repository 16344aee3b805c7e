/**
 * The firm's availability as the admin edits it (GET and PUT /api/admin/booking-rules, the
 * /admin/availability screen; decision 032): consultation hours for each weekday, its own closures,
 * whether the court holidays close the office, the minimum notice in hours and the booking horizon in
 * days. The booking rules every judgement uses (src/shared/booking/rules.ts) are made from it by
 * `rulesOf`; `settingsOf` is the reverse, for the defaults.
 *
 * SPEC §9's 13 slots stay the grid of start times (decision 024): the hours are half hours from
 * 9:00 AM (the first slot) to 5:00 PM (the end of an hour-long consultation at 4:00 PM, the last).
 * Weekdays only (SPEC §5: the date picker disables Saturdays and Sundays).
 */
import { z } from 'zod';
import { type BookingRules, defaultBookingRules } from '../booking/rules.ts';
import { addDays, isFirmDate, slotLabel } from '../firm-time.ts';
import { requiredText } from './fields.ts';

/** The days hours are set for, Monday first, with their weekday number (0 Sunday … 6 Saturday). */
export const weekdays = [
  { key: 'monday', label: 'Monday', short: 'Mon', day: 1 },
  { key: 'tuesday', label: 'Tuesday', short: 'Tue', day: 2 },
  { key: 'wednesday', label: 'Wednesday', short: 'Wed', day: 3 },
  { key: 'thursday', label: 'Thursday', short: 'Thu', day: 4 },
  { key: 'friday', label: 'Friday', short: 'Fri', day: 5 },
] as const;
export type WeekdayKey = (typeof weekdays)[number]['key'];

/** The times an interval may start or end at: the half hours from 9:00 AM to 5:00 PM. */
export const hoursTimes: readonly string[] = Array.from({ length: 17 }, (_, i) => {
  const minutes = 9 * 60 + i * 30;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${minutes % 60 ? '30' : '00'}`;
});

/** At most two intervals a day: the morning and the afternoon around a lunch break. */
export const MAX_INTERVALS_PER_DAY = 2;
export const MAX_CLOSURES = 200;
/** Minimum notice: none to 30 days. */
export const noticeHoursRange = { min: 0, max: 720 } as const;
/** Booking horizon: a day to two years. */
export const horizonDaysRange = { min: 1, max: 730 } as const;
/** A closure is at most a year long; its days lie between 2000 and 2199. */
export const MAX_CLOSURE_DAYS = 366;
export const CLOSURE_REASON_MAX = 100;

const time = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .refine((v) => hoursTimes.includes(v), `${label} must be a half hour from ${slotLabel(hoursTimes[0]!)} to ${slotLabel(hoursTimes.at(-1)!)}`);

const interval = z
  .object({ start: time('Start'), end: time('End') })
  .refine((i) => i.start < i.end, { message: 'The end must be later than the start', path: ['end'] });

const dayHours = z
  .array(interval, { error: (issue) => (issue.input === undefined ? 'Hours are required for each weekday' : 'Hours must be a list of times') })
  .max(MAX_INTERVALS_PER_DAY, `At most ${MAX_INTERVALS_PER_DAY} ranges a day (one before and one after a break)`)
  .superRefine((list, ctx) => {
    const [first, second] = list;
    if (first && second && second.start < first.end) {
      ctx.addIssue({ code: 'custom', message: 'The second range must start when or after the first one ends', path: [1, 'start'] });
    }
  });

const hours = z.strictObject(Object.fromEntries(weekdays.map((d) => [d.key, dayHours])) as Record<WeekdayKey, typeof dayHours>, {
  error: (issue) => (issue.code === 'unrecognized_keys' ? 'Consultations are held on weekdays only (Monday to Friday)' : 'Hours are required for each weekday'),
});

const isClosureDay = (v: unknown) => typeof v === 'string' && isFirmDate(v) && v >= '2000-01-01' && v <= '2199-12-31';
const day = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .refine(isClosureDay, `${label} must be a date (YYYY-MM-DD)`);

const bothDays = (c: { from: unknown; to: unknown }) => isClosureDay(c.from) && isClosureDay(c.to);

const closure = z
  .object({ from: day('First day'), to: day('Last day'), reason: requiredText('Reason', CLOSURE_REASON_MAX) })
  // The day fields' own refusals do not stop these (zod runs continuable checks on): judged on real dates only.
  .refine((c) => !bothDays(c) || c.from <= c.to, { message: 'The last day must be on or after the first day', path: ['to'] })
  .refine((c) => !bothDays(c) || c.from > c.to || c.to <= addDays(c.from, MAX_CLOSURE_DAYS - 1), {
    message: `A closure lasts at most ${MAX_CLOSURE_DAYS} days`,
    path: ['to'],
  });

const wholeNumber = (label: string, { min, max }: { min: number; max: number }, unit: string) =>
  z
    .number({ error: `${label} must be a whole number of ${unit}` })
    .int(`${label} must be a whole number of ${unit}`)
    .min(min, `${label} must be from ${min} to ${max} ${unit}`)
    .max(max, `${label} must be from ${min} to ${max} ${unit}`);

const inRange = (n: number, { min, max }: { min: number; max: number }) => Number.isInteger(n) && n >= min && n <= max;

/** PUT /api/admin/booking-rules: the whole of the firm's availability, replaced at once. */
export const bookingRulesInput = z
  .object({
    hours,
    observeHolidays: z.boolean({ error: 'Court holidays must be true or false' }),
    minimumNoticeHours: wholeNumber('Minimum notice', noticeHoursRange, 'hours'),
    bookingHorizonDays: wholeNumber('Booking horizon', horizonDaysRange, 'days'),
    closures: z.array(closure, { error: 'Closures must be a list' }).max(MAX_CLOSURES, `At most ${MAX_CLOSURES} closures; remove past ones first`),
  })
  // Judged only on sound values: each field's own refusal says what is wrong with it.
  .refine(
    (r) =>
      !inRange(r.minimumNoticeHours, noticeHoursRange) || !inRange(r.bookingHorizonDays, horizonDaysRange) || r.minimumNoticeHours < r.bookingHorizonDays * 24,
    {
      message: 'The minimum notice must be shorter than the booking horizon, or no day could be booked',
      path: ['minimumNoticeHours'],
    },
  );

export type BookingRulesSettings = z.output<typeof bookingRulesInput>;

/** The rules every judgement uses (rules.ts), from the settings. */
export function rulesOf(settings: BookingRulesSettings): BookingRules {
  const byDay: BookingRules['hours'][number][] = Array.from({ length: 7 }, () => []);
  for (const d of weekdays) byDay[d.day] = settings.hours[d.key].map(({ start, end }) => ({ start, end }));
  return {
    hours: byDay,
    observeHolidays: settings.observeHolidays,
    closures: settings.closures.map(({ from, to, reason }) => ({ from, to, reason })),
    minimumNoticeMinutes: settings.minimumNoticeHours * 60,
    windowDays: settings.bookingHorizonDays,
  };
}

/** The settings of a set of rules (the defaults, before anything is stored). */
export function settingsOf(rules: BookingRules): BookingRulesSettings {
  return {
    hours: Object.fromEntries(
      weekdays.map((d) => [d.key, (rules.hours[d.day] ?? []).map(({ start, end }) => ({ start, end }))]),
    ) as BookingRulesSettings['hours'],
    observeHolidays: rules.observeHolidays,
    minimumNoticeHours: Math.ceil(rules.minimumNoticeMinutes / 60),
    bookingHorizonDays: rules.windowDays,
    closures: rules.closures.map(({ from, to, reason }) => ({ from, to, reason })),
  };
}

/** What a new install starts with (migration 0013 stores the same): src/shared/booking/rules.ts's defaults. */
export const defaultBookingRulesSettings: BookingRulesSettings = settingsOf(defaultBookingRules);
