/**
 * What a visitor keeps of a booking (issue 18, "self-service"): a short booking reference to quote
 * on the phone, and links that add the consultation to Google Calendar or Outlook. Browser-safe: the
 * booking modal's confirmation and the confirmation e-mail build them the same way.
 */

/** 'A1B2-C3D4': the first eight characters of the appointment's id, grouped for reading aloud. */
export function bookingReference(appointmentId: string): string {
  const hex = appointmentId.replace(/-/g, '').slice(0, 8).toUpperCase();
  return `${hex.slice(0, 4)}-${hex.slice(4)}`;
}

export interface CalendarLinkEvent {
  title: string;
  start: Date;
  minutes: number;
  location: string;
  details: string;
}

/** 20300715T160000Z: Google's form of a UTC instant. */
const googleInstant = (instant: Date) =>
  instant
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** Links that open the visitor's calendar with the consultation filled in (nothing is sent to them from here). */
export function addToCalendarLinks(event: CalendarLinkEvent): { google: string; outlook: string } {
  const end = new Date(event.start.getTime() + event.minutes * 60_000);
  const google = new URL('https://calendar.google.com/calendar/render');
  google.search = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.title,
    dates: `${googleInstant(event.start)}/${googleInstant(end)}`,
    details: event.details,
    location: event.location,
  }).toString();
  const outlook = new URL('https://outlook.live.com/calendar/0/action/compose');
  outlook.search = new URLSearchParams({
    path: '/calendar/action/compose',
    rru: 'addevent',
    subject: event.title,
    startdt: event.start.toISOString(),
    enddt: end.toISOString(),
    body: event.details,
    location: event.location,
  }).toString();
  return { google: google.href, outlook: outlook.href };
}

/**
 * '6:00 AM Tuesday, July 16 in your time zone (Pacific/Kiritimati)' when the visitor's zone is not
 * the firm's, else null: a visitor far away reads the consultation in their own time too.
 */
export function visitorTimeLabel(instant: Date, visitorZone: string, firmZone: string): string | null {
  if (!visitorZone || visitorZone === firmZone) return null;
  const format = (zone: string, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-US', { timeZone: zone, ...options }).format(instant);
  const time: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
  const day: Intl.DateTimeFormatOptions = { weekday: 'long', month: 'long', day: 'numeric' };
  // Another name for the firm's own clock (America/Tijuana) says nothing new.
  if (format(visitorZone, { ...time, ...day }) === format(firmZone, { ...time, ...day })) return null;
  return `${format(visitorZone, time)} ${format(visitorZone, day)} in your time zone (${visitorZone})`;
}
