/**
 * The firm's time: its zone, its clock, and how its dates and times read. Every date or time the site,
 * the admin portal, the e-mails or the .ics show a person comes from here (there were five places).
 *
 * The clock (DOMAIN "Scheduling"): slots are wall-clock times in San Diego, so "today",
 * "past", "weekend" and "9:00 AM" are judged in the firm's zone whatever the zone of the visitor's
 * browser or of the server. Browser-safe and dependency-free: Intl only, never the process's own zone
 * (no `getHours()`, `getDay()`, `new Date('2030-01-01')` local parsing). The unit tests run under
 * TZ=UTC, Asia/Tokyo and Pacific/Kiritimati to keep it that way. See docs/decisions/008.
 *
 * The formats (at the end): visitors and e-mails read long dates and "Pacific Time (San Diego)"
 * ('Monday, June 1, 2026 at 9:00 AM Pacific Time (San Diego)'); admin screens read compact dates with
 * PDT or PST on every time ('Mon, Jun 1, 2026 at 9:00 AM PDT'); article and list dates read
 * 'June 1, 2026'. Tests and e2e specs assert these strings: change them on purpose only.
 */
import { firm } from '../config/firm.ts';
import { timeSlots } from './constants.ts';

/** America/Los_Angeles: declared once, with the firm's other facts (src/config/firm.ts). */
export const FIRM_TIME_ZONE = firm.timeZone;
/** How the zone is named to visitors, next to every time they read. */
export const FIRM_TIME_ZONE_LABEL = 'Pacific Time (San Diego)';

/** A calendar day in the firm's zone, 'YYYY-MM-DD'. */
export type FirmDate = string;

/** A calendar month, 'YYYY-MM'. */
export type FirmMonth = string;

const MINUTE = 60_000;

// One formatter, reused: creating Intl formatters is the slow part.
let formatter: Intl.DateTimeFormat | undefined;
function intlParts(instant: Date) {
  formatter ??= new Intl.DateTimeFormat('en-US', {
    timeZone: FIRM_TIME_ZONE,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(instant)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  // Some engines still print midnight as 24 under h23 with hour12 unset; it is 0.
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour! % 24, minute: parts.minute!, second: parts.second! };
}

/**
 * The zone's offset from UTC (ms) through the quarter hour holding `instant`, read from Intl once per
 * quarter hour and kept. Zones change their offsets at quarter hours of UTC (the offsets themselves
 * are whole quarter hours, Nepal's +5:45 included), so one reading serves the whole quarter; only the
 * local mean times of the 19th century changed elsewhere. Intl's formatToParts was the largest part
 * of checking a booking's slot (bench/booking.ts profiles).
 */
const QUARTER_HOUR = 15 * 60_000;
const offsets = new Map<number, number>();
function offsetAt(instant: number): number {
  const quarter = Math.floor(instant / QUARTER_HOUR);
  let offset = offsets.get(quarter);
  if (offset === undefined) {
    if (offsets.size >= 10_000) offsets.clear();
    const start = quarter * QUARTER_HOUR;
    const p = intlParts(new Date(start));
    offset = utcMidnight(p.year, p.month, p.day) + ((p.hour * 60 + p.minute) * 60 + p.second) * 1000 - start;
    offsets.set(quarter, offset);
  }
  return offset;
}

/** The firm's wall clock at `instant`, field by field. */
function firmParts(instant: Date) {
  const time = instant.getTime();
  if (Number.isNaN(time)) throw new RangeError('Invalid time value');
  const wall = new Date(time + offsetAt(time));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** UTC milliseconds of a calendar day (years below 100 included: Date.UTC would read them as 19xx). */
function utcMidnight(year: number, month: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getTime();
}

function formatUtcDay(ms: number): FirmDate {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** [year, month, day] of a 'YYYY-MM-DD' that names a real calendar day, else null ('2030-02-30' is not one). */
export function parseFirmDate(date: string): [number, number, number] | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return null;
  return formatUtcDay(utcMidnight(year, month, day)) === date ? [year, month, day] : null;
}

export function isFirmDate(date: string): date is FirmDate {
  return parseFirmDate(date) !== null;
}

function requireDate(date: FirmDate): [number, number, number] {
  const parsed = parseFirmDate(date);
  if (!parsed) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${JSON.stringify(date)}`);
  return parsed;
}

function parseTime(time: string): [number, number] {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!match) throw new RangeError(`Not a 24-hour time (HH:MM): ${JSON.stringify(time)}`);
  return [Number(match[1]), Number(match[2])];
}

/** Minutes the firm's wall clock is ahead of UTC at `instant` (-420 in summer, -480 in winter). */
function firmOffsetMinutes(instant: number): number {
  return Math.round(offsetAt(instant) / MINUTE);
}

/**
 * The UTC instant of wall-clock `time` on `date` in the firm's zone. Correct across daylight-saving
 * changes: 09:00 on the Monday after the spring-forward Sunday is 16:00Z, the Friday before it 17:00Z.
 * (A time that does not exist, 02:30 on the spring-forward Sunday, lands an hour later, as clocks do;
 * no slot is anywhere near.)
 */
export function firmInstant(date: FirmDate, time: string): Date {
  const [year, month, day] = requireDate(date);
  const [hour, minute] = parseTime(time);
  const wall = utcMidnight(year, month, day) + (hour * 60 + minute) * MINUTE;
  // The offset depends on the instant we are looking for: guess with the offset at the wall time read
  // as UTC, then correct once with the offset at the guess (it differs only near a change).
  const first = wall - firmOffsetMinutes(wall) * MINUTE;
  const second = wall - firmOffsetMinutes(first) * MINUTE;
  return new Date(second);
}

/** The firm's calendar day at `instant`. */
export function firmDateOf(instant: Date): FirmDate {
  const p = firmParts(instant);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

/** The firm's wall-clock time at `instant`, 'HH:MM' (24 h; seconds dropped). */
export function firmTimeOf(instant: Date): string {
  const p = firmParts(instant);
  return `${pad(p.hour)}:${pad(p.minute)}`;
}

export function firmToday(now: Date): FirmDate {
  return firmDateOf(now);
}

/** Saturday or Sunday (a calendar fact about the day, no zone involved). */
export function isWeekend(date: FirmDate): boolean {
  const [year, month, day] = requireDate(date);
  const weekday = new Date(utcMidnight(year, month, day)).getUTCDay();
  return weekday === 0 || weekday === 6;
}

/** Calendar arithmetic: '2030-02-28' + 1 = '2030-03-01'. No zone involved. */
export function addDays(date: FirmDate, days: number): FirmDate {
  const [year, month, day] = requireDate(date);
  return formatUtcDay(utcMidnight(year, month, day + days));
}

/**
 * The firm's wall-clock time at `instant`, '2030-05-06T10:30:00', for what takes a local time plus a
 * zone name: a TZID value in the .ics (without the punctuation), Microsoft Graph, a datetime-local input.
 */
export function firmWallClock(instant: Date): string {
  const p = firmParts(instant);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

// ---------------------------------------------------------------------------------------------------
// How the firm's dates and times read (en-US). Formatters are made on first use and kept: creating
// them is the slow part.

function lazyFormat(options: Intl.DateTimeFormatOptions): (instant: Date) => string {
  let format: Intl.DateTimeFormat | undefined;
  return (instant) => (format ??= new Intl.DateTimeFormat('en-US', options)).format(instant);
}

// Calendar values ('2026-06-01', '2026-06') are written as UTC days, which no zone can move; instants
// are written in the firm's zone.
const calendarLongDate = lazyFormat({ timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
const calendarMonth = lazyFormat({ timeZone: 'UTC', month: 'long', year: 'numeric' });
const calendarDate = lazyFormat({ timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' });
const firmDay = lazyFormat({ timeZone: FIRM_TIME_ZONE, month: 'long', day: 'numeric', year: 'numeric' });
const firmShortDate = lazyFormat({ timeZone: FIRM_TIME_ZONE, weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
const firmClock = lazyFormat({ timeZone: FIRM_TIME_ZONE, hour: 'numeric', minute: '2-digit' });
const firmClockWithZone = lazyFormat({ timeZone: FIRM_TIME_ZONE, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });

const toDate = (value: string | Date) => (value instanceof Date ? value : new Date(value));
const calendarDay = (date: FirmDate) => {
  const [year, month, day] = requireDate(date);
  return new Date(utcMidnight(year, month, day));
};

/** '09:00' -> '9:00 AM', '13:30' -> '1:30 PM', '00:15' -> '12:15 AM': a slot, as the booking modal lists it. */
export function slotLabel(time: string): string {
  const [hour, minute] = parseTime(time);
  const twelve = hour % 12 === 0 ? 12 : hour % 12;
  return `${twelve}:${pad(minute)} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** 'Monday, June 1, 2026': a firm date, or the firm's day at an instant (booking modal, e-mails). */
export function longDateLabel(day: FirmDate | Date): string {
  return calendarLongDate(calendarDay(typeof day === 'string' ? day : firmDateOf(day)));
}

/** 'June 1, 2026': a calendar date as written (a review's date), whatever the reader's zone. */
export function calendarDateLabel(day: FirmDate): string {
  return calendarDate(calendarDay(day));
}

/** 'June 2026' (the date picker's heading). */
export function monthLabel(month: FirmMonth): string {
  return calendarMonth(calendarDay(`${month}-01`));
}

/** '9:00 AM Pacific Time (San Diego)': the firm's time at an instant, as visitors and e-mails read it. */
export function timeWithZoneLabel(instant: Date): string {
  return `${slotLabel(firmTimeOf(instant))} ${FIRM_TIME_ZONE_LABEL}`;
}

/** 'Monday, June 1, 2026 at 9:00 AM Pacific Time (San Diego)': when a consultation is. */
export function whenLabel(instant: Date): string {
  return `${longDateLabel(instant)} at ${timeWithZoneLabel(instant)}`;
}

/** 'June 1, 2026': an article's date, or a day in a list; null when there is no valid instant. */
export function dateLabel(value: string | Date | null | undefined): string | null {
  if (!value) return null;
  const instant = toDate(value);
  return Number.isNaN(instant.getTime()) ? null : firmDay(instant);
}

/** 'Mon, Jun 15, 2026' (admin screens). */
export function formatFirmDate(value: string | Date): string {
  return firmShortDate(toDate(value));
}

/** '10:30 AM PDT' (admin screens: the zone's short name on every time, so nobody reads one an hour off). */
export function formatFirmTime(value: string | Date): string {
  return firmClockWithZone(toDate(value));
}

/** 'Mon, Jun 15, 2026 at 10:30 AM PDT' (admin screens). */
export function formatFirmDateTime(value: string | Date): string {
  return `${formatFirmDate(value)} at ${formatFirmTime(value)}`;
}

/** '10:30 AM – 11:00 AM PDT': a meeting of `minutes` starting at `start` (admin screens). */
export function formatFirmTimeRange(start: string | Date, minutes: number): string {
  const from = toDate(start);
  return `${firmClock(from)} – ${formatFirmTime(new Date(from.getTime() + minutes * MINUTE))}`;
}
