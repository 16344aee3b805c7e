/**
 * What a visitor keeps of a booking (issue 18, "self-service"): a short booking reference to quote
 * on the phone, and links that add the consultation to Google Calendar or Outlook. Browser-safe: the
 * booking modal's confirmation and the confirmation e-mail build them the same way.
 */
import { firm } from '../../config/firm.ts';

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

/**
 * Where a booking's own link leads (issue 18): the page that shows it and lets its visitor cancel or
 * reschedule it. The token goes in the fragment, which browsers never send to a server: it stays out of
 * the CDN's and the server's logs and out of any Referer.
 */
export const MANAGE_BOOKING_PATH = '/manage-booking';
export const manageBookingHref = (token: string) => `${MANAGE_BOOKING_PATH}#${token}`;

/** The header that carries the token to the API (never a query string: URLs are logged). */
export const BOOKING_TOKEN_HEADER = 'X-Booking-Token';

/** What the booking's page and the API say when the link cannot do what was asked. */
export const selfServiceMessages = {
  invalidLink: `This link is not valid. Please open the link in your confirmation e-mail again, or call us at ${firm.phone}.`,
  gone: `This consultation is no longer in our schedule. Please call us at ${firm.phone} if you think this is a mistake.`,
  cancelled: 'This consultation was cancelled, so it can no longer be changed. You are welcome to schedule a new one.',
  completed: 'This consultation has taken place, so it can no longer be changed.',
  started: `This consultation has already started, so it can no longer be changed online. Please call us at ${firm.phone}.`,
  external: `This consultation was booked through another scheduling service: please change it there, or call us at ${firm.phone}.`,
  changedMeanwhile: 'Your consultation was changed at the same time from elsewhere. Please reload the page to see it as it is now.',
} as const;

/**
 * Whether an appointment's external reference is an inbound booking's (a Calendly invitee's URI):
 * booked through another scheduler, which mails its invitee itself and where it must be cancelled.
 * An outbound calendar event's id (Google, Outlook) is not a URL.
 */
export const isInboundRef = (externalEventId: string | null | undefined) => Boolean(externalEventId && /^https?:\/\//i.test(externalEventId));
