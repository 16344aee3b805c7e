/**
 * The calendar attachment of the consultation e-mails (DOMAIN "Scheduling": confirmations
 * without a calendar attachment, and events shifted an hour around daylight-saving changes, are what
 * scheduling users complain about most). Written by hand: RFC 5545 needs little for one event, and
 * the `ics` package writes times in UTC or floating local time only, never with a TZID and its
 * VTIMEZONE, which is what makes a calendar show "9:00 AM Pacific" as the firm meant it.
 *
 * The event is in firm time: DTSTART;TZID=America/Los_Angeles with the wall-clock time at the office,
 * and a VTIMEZONE carrying the zone's rules, so a calendar app computes the instant itself (correct
 * on either side of a change) and shows it in the reader's own zone. The UID is the appointment's:
 * the confirmation, the reminder and a cancellation (METHOD:CANCEL, higher SEQUENCE) all name the
 * same event, so a calendar updates or removes the entry it already has instead of adding another.
 */
import { FIRM_TIME_ZONE, firmWallClock } from '../../src/shared/firm-time.ts';

export const ICS_PRODID = '-//Pacific Crest Law Group//Consultations//EN';

/**
 * America/Los_Angeles as US law has it since 2007: daylight time from the second Sunday of March at
 * 2:00 AM to the first Sunday of November at 2:00 AM. Every booking is in the future, so the
 * historical rules are not needed. If the law changes (permanent daylight time has been proposed),
 * update these rules: ics.test.ts compares them with the system's time-zone data (Intl) over the
 * coming years and fails when they disagree.
 */
const VTIMEZONE_LOS_ANGELES = [
  'BEGIN:VTIMEZONE',
  `TZID:${FIRM_TIME_ZONE}`,
  `X-LIC-LOCATION:${FIRM_TIME_ZONE}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0800',
  'TZOFFSETTO:-0700',
  'TZNAME:PDT',
  'DTSTART:20070311T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0700',
  'TZOFFSETTO:-0800',
  'TZNAME:PST',
  'DTSTART:20071104T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

export interface CalendarEvent {
  /** Stable for the appointment: every message about it names the same event. */
  uid: string;
  /** REQUEST (booked, reminded) or CANCEL. */
  method: 'REQUEST' | 'CANCEL';
  /** 0 for the event as booked; each change (a cancellation) increases it. */
  sequence: number;
  start: Date;
  durationMinutes: number;
  /** When this calendar object was made (DTSTAMP, UTC). */
  stamp: Date;
  summary: string;
  description: string;
  location: string;
  organizer: { name: string; email: string };
  attendee?: { name: string; email: string };
}

/** RFC 5545 §3.3.11 TEXT: backslash, semicolon, comma and line breaks escaped. */
export function escapeText(value: string): string {
  return value
    .replace(/\r\n?/g, '\n')
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\n/g, '\\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}

/**
 * A parameter value (CN=...): quoted, since names hold commas and colons; DQUOTE and control
 * characters cannot appear in one at all (RFC 5545 §3.1), so they are dropped.
 */
function paramValue(value: string): string {
  return `"${value.replace(/["\u0000-\u001f\u007f]/g, '').trim()}"`;
}

/** A calendar address: a mailto URI of an address that has no character a content line cannot hold. */
function mailto(email: string): string {
  return `mailto:${email.replace(/[\s"<>;,:\\]/g, '')}`;
}

/**
 * RFC 5545 §3.1: content lines longer than 75 octets are folded, CRLF then one space; the space
 * counts in the next line's 75. A UTF-8 character is never split across lines.
 */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  let limit = 75;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    if (octets + size > limit) {
      out.push(current);
      current = ' ';
      octets = 1;
      limit = 75;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n');
}

/** '20300506T103000': the firm's wall-clock time at `instant` (for a TZID=America/Los_Angeles value). */
function firmLocalStamp(instant: Date): string {
  return firmWallClock(instant).replace(/[-:]/g, '');
}

/** '20300506T173000Z'. */
export function utcStamp(instant: Date): string {
  return `${instant.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}

/** The whole calendar object, CRLF line ends, lines folded. */
export function buildIcs(event: CalendarEvent): string {
  const end = new Date(event.start.getTime() + event.durationMinutes * 60_000);
  const cancelled = event.method === 'CANCEL';
  const lines = [
    'BEGIN:VCALENDAR',
    `PRODID:${ICS_PRODID}`,
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    `METHOD:${event.method}`,
    ...VTIMEZONE_LOS_ANGELES,
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${utcStamp(event.stamp)}`,
    `DTSTART;TZID=${FIRM_TIME_ZONE}:${firmLocalStamp(event.start)}`,
    `DTEND;TZID=${FIRM_TIME_ZONE}:${firmLocalStamp(end)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    `LOCATION:${escapeText(event.location)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    `ORGANIZER;CN=${paramValue(event.organizer.name)}:${mailto(event.organizer.email)}`,
    ...(event.attendee
      ? [`ATTENDEE;CN=${paramValue(event.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:${mailto(event.attendee.email)}`]
      : []),
    `STATUS:${cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'TRANSP:OPAQUE',
    'CLASS:PRIVATE',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
