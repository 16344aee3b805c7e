/**
 * The rules of the /admin/availability screen (the booking-rules feature, decision 032), apart from React so they can be tested
 * alone: the form's draft and the payload made of it, the live summary in the firm's words, a break
 * in a day's hours, the field messages (the payload schema's, src/shared/schemas/booking-rules.ts,
 * keyed as the server keys them) and which closures are past.
 */
import { FIRM_TIME_ZONE_LABEL, slotLabel, type FirmDate } from '../../../shared/firm-time.ts';
import { type BookingRulesSettings, bookingRulesInput, hoursTimes, weekdays, type WeekdayKey } from '../../../shared/schemas/booking-rules.ts';

export type Interval = { start: string; end: string };

/** The form as typed: the numbers as their fields hold them (text), so a half-typed value is kept as is. */
export interface AvailabilityDraft {
  hours: Record<WeekdayKey, Interval[]>;
  observeHolidays: boolean;
  minimumNoticeHours: string;
  bookingHorizonDays: string;
  closures: { key: string; from: string; to: string; reason: string }[];
}

let closureKeys = 0;
/** A key React can keep a closure row by while its dates and reason change. */
export const newClosureKey = () => `closure-${++closureKeys}`;

export function draftOf(settings: BookingRulesSettings): AvailabilityDraft {
  return {
    hours: Object.fromEntries(weekdays.map((d) => [d.key, settings.hours[d.key].map((i) => ({ ...i }))])) as AvailabilityDraft['hours'],
    observeHolidays: settings.observeHolidays,
    minimumNoticeHours: String(settings.minimumNoticeHours),
    bookingHorizonDays: String(settings.bookingHorizonDays),
    closures: settings.closures.map((c) => ({ key: newClosureKey(), ...c })),
  };
}

/** A whole number typed in a field, or NaN (the schema then says the field wants a whole number). */
const wholeNumber = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);

/** The PUT body the draft stands for. */
export function payloadOf(draft: AvailabilityDraft): BookingRulesSettings {
  return {
    hours: draft.hours,
    observeHolidays: draft.observeHolidays,
    minimumNoticeHours: wholeNumber(draft.minimumNoticeHours),
    bookingHorizonDays: wholeNumber(draft.bookingHorizonDays),
    closures: draft.closures.map(({ from, to, reason }) => ({ from, to, reason })),
  };
}

/** Whether saving would change anything (the closures' row keys aside). */
export const hasChanges = (draft: AvailabilityDraft, saved: AvailabilityDraft) => JSON.stringify(payloadOf(draft)) !== JSON.stringify(payloadOf(saved));

/** The messages of the fields the payload schema refuses, keyed as the server's 400 keys them ('hours.monday.0.end'). */
export function draftErrors(draft: AvailabilityDraft): Record<string, string> {
  const result = bookingRulesInput.safeParse(payloadOf(draft));
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[issue.path.map(String).join('.') || '_'] ??= issue.message;
  return errors;
}

/** The hours the day opens with when the admin switches it on: the whole consultation day. */
export const openDay = (): Interval[] => [{ start: hoursTimes[0]!, end: hoursTimes.at(-1)! }];

/**
 * One range made two, around a lunch hour: 12:00-1:00 PM when the range spans it, else an hour (or
 * half an hour) in its middle. A range too short for a break is kept whole (null).
 */
export function withBreak(range: Interval): Interval[] | null {
  const index = (t: string) => hoursTimes.indexOf(t);
  const [s, e] = [index(range.start), index(range.end)];
  if (s < 0 || e < 0 || e - s < 3) return null;
  const noon = index('12:00');
  const one = index('13:00');
  if (s < noon && e > one)
    return [
      { start: range.start, end: '12:00' },
      { start: '13:00', end: range.end },
    ];
  const gap = e - s >= 4 ? 2 : 1;
  const from = s + Math.floor((e - s - gap) / 2);
  return [
    { start: range.start, end: hoursTimes[from]! },
    { start: hoursTimes[from + gap]!, end: range.end },
  ];
}

/** '9:00 AM–12:00 PM'. */
export const intervalLabel = (i: Interval) => `${slotLabel(i.start)}–${slotLabel(i.end)}`;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * The live summary: 'Open Mon–Fri 9:00 AM–12:00 PM and 1:00 PM–5:00 PM Pacific Time (San Diego); closed
 * on court holidays; book 2 hours to 365 days ahead'. Weekdays with the same hours are grouped (Mon–Thu);
 * the closures still to come are counted. Values the form would refuse are left out rather than guessed.
 */
export function availabilitySummary(draft: AvailabilityDraft, today: FirmDate): string {
  const groups: { first: string; last: string; hours: string }[] = [];
  for (const d of weekdays) {
    const ranges = draft.hours[d.key];
    if (ranges.length === 0) continue;
    const hours = ranges.map(intervalLabel).join(' and ');
    const previous = groups.at(-1);
    const before = weekdays[weekdays.findIndex((w) => w.key === d.key) - 1];
    if (previous && previous.hours === hours && before && previous.last === before.short) previous.last = d.short;
    else groups.push({ first: d.short, last: d.short, hours });
  }
  const parts = [
    groups.length === 0
      ? 'Closed every weekday: no consultation can be booked'
      : `Open ${groups.map((g) => `${g.first === g.last ? g.first : `${g.first}–${g.last}`} ${g.hours}`).join(', ')} ${FIRM_TIME_ZONE_LABEL}`,
    draft.observeHolidays ? 'closed on court holidays' : 'open on court holidays',
  ];
  const notice = wholeNumber(draft.minimumNoticeHours);
  const horizon = wholeNumber(draft.bookingHorizonDays);
  if (Number.isFinite(horizon)) {
    parts.push(notice > 0 ? `book ${plural(notice, 'hour')} to ${plural(horizon, 'day')} ahead` : `book up to ${plural(horizon, 'day')} ahead`);
  }
  const ahead = draft.closures.filter((c) => !isPastClosure(c, today)).length;
  if (ahead > 0) parts.push(`${plural(ahead, 'closure')} to come`);
  return parts.join('; ');
}

/** A closure whose last day is before today: it closes nothing any more. */
export const isPastClosure = (c: { to: string }, today: FirmDate) => c.to !== '' && c.to < today;

/** What saving says when it works, and when it does not (SPEC §8's words). */
export const messages = {
  saved: 'Availability updated successfully',
  failed: 'Failed to update availability',
} as const;
