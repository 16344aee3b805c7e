/**
 * Dates and times on admin screens, in the firm's zone (America/Los_Angeles, DOMAIN "Scheduling"),
 * whatever the zone of the admin's browser, with the zone's short name (PDT or PST) on every time so
 * nobody reads a consultation an hour off. Formatters are made once: creating them is the slow part.
 */
import { FIRM_TIME_ZONE } from '../../../shared/booking/firm-time.ts';

const dateFormat = new Intl.DateTimeFormat('en-US', { timeZone: FIRM_TIME_ZONE, weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
const timeFormat = new Intl.DateTimeFormat('en-US', { timeZone: FIRM_TIME_ZONE, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });

const toDate = (value: string | Date) => (value instanceof Date ? value : new Date(value));

/** 'Mon, Jun 15, 2026' */
export function formatFirmDate(value: string | Date): string {
  return dateFormat.format(toDate(value));
}

/** '10:30 AM PDT' */
export function formatFirmTime(value: string | Date): string {
  return timeFormat.format(toDate(value));
}

/** 'Mon, Jun 15, 2026 at 10:30 AM PDT' */
export function formatFirmDateTime(value: string | Date): string {
  return `${formatFirmDate(value)} at ${formatFirmTime(value)}`;
}

const clockFormat = new Intl.DateTimeFormat('en-US', { timeZone: FIRM_TIME_ZONE, hour: 'numeric', minute: '2-digit' });

/** '10:30 AM – 11:00 AM PDT': a meeting of `minutes` starting at `start`. */
export function formatFirmTimeRange(start: string | Date, minutes: number): string {
  const from = toDate(start);
  return `${clockFormat.format(from)} – ${formatFirmTime(new Date(from.getTime() + minutes * 60_000))}`;
}
