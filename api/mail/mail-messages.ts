/**
 * The texts of the e-mails: each message as plain text and simple HTML, the same words in
 * both. Times are the firm's, written by src/shared/firm-time.ts ('Monday, May 6, 2030', '10:30 AM
 * Pacific Time (San Diego)'), whatever the server's zone or the reader's: a consultation is at the
 * office. Every value a visitor typed is escaped in the HTML and flattened to one line in a subject.
 * Messages to visitors carry the inquiry disclaimer (DOMAIN "Attorney advertising", ABA Formal Op.
 * 10-457) and the firm's name and office address (Cal. RPC 7.2(c)).
 */
import { firm, firmAddressLine } from '../../src/config/firm.ts';
import { addDays, firmDateOf, firmTimeOf, longDateLabel, slotLabel, timeWithZoneLabel, whenLabel } from '../../src/shared/firm-time.ts';
import { consultationTypeLabel, practiceAreaLabel } from '../../src/shared/constants.ts';
import { addToCalendarLinks, bookingReference } from '../../src/shared/booking/self-service.ts';
import type { AppointmentSnapshot } from '../activity.ts';
import { buildIcs } from './ics.ts';

/** What a message about an appointment needs, as stored in a delivery's payload (JSON). */
export type AppointmentDetails = Omit<AppointmentSnapshot, 'externalEventId'>;

export interface ContactDetails {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  practiceArea: string;
  message: string;
  /** ISO instant (UTC). */
  createdAt: string;
}

export interface MailAttachment {
  filename: string;
  /** Full MIME type, parameters included ('text/calendar; charset=utf-8; method=REQUEST'). */
  contentType: string;
  /** Text content (UTF-8). */
  content: string;
}

export interface MailAddress {
  email: string;
  name?: string | null;
}

export interface OutgoingMail {
  to: MailAddress;
  replyTo?: MailAddress | null;
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
}

export const INQUIRY_DISCLAIMER =
  'Booking a consultation does not create an attorney-client relationship. Please do not send confidential information until we have agreed to represent you.';

/** The domain of the firm's own address: calendar UIDs and Message-IDs are named under it. */
export const firmMailDomain = firm.email.split('@')[1]!;

/** The calendar event of an appointment: the same UID in every message about it. */
export const appointmentUid = (appointmentId: string) => `appointment-${appointmentId}@${firmMailDomain}`;

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A subject line: no line breaks or control characters (a visitor's name goes into some). */
export function oneLine(value: string, max = 200): string {
  const flat = value
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const fullName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`.trim();
const minutes = (n: number) => `${n} minutes`;
const officeLocation = `${firm.name}, ${firmAddressLine}`;
const adminLink = (siteUrl: string, path: string) => new URL(path, siteUrl).href;

/** One labelled detail; null values are left out of the message. */
type Row = [label: string, value: string | null];

function textRows(rows: Row[]): string {
  return rows
    .filter(([, v]) => v !== null)
    .map(([label, value]) => (value!.includes('\n') ? `${label}:\n${indent(value!)}` : `${label}: ${value}`))
    .join('\n');
}

const indent = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => `  ${line}`)
    .join('\n');

function htmlRows(rows: Row[]): string {
  const cells = rows
    .filter(([, v]) => v !== null)
    .map(
      ([label, value]) =>
        `<tr><th align="left" valign="top" style="padding:4px 12px 4px 0;white-space:nowrap">${escapeHtml(label)}</th><td style="padding:4px 0">${multiline(value!)}</td></tr>`,
    )
    .join('');
  return `<table role="presentation" style="border-collapse:collapse;margin:12px 0">${cells}</table>`;
}

/** Escaped, line breaks kept. */
const multiline = (text: string) => escapeHtml(text).replace(/\r?\n/g, '<br>');

/** A paragraph in both forms; `html` defaults to the escaped text. */
type Block = { text: string; html?: string } | { rows: Row[] } | { small: string };

function render(blocks: Block[]): { text: string; html: string } {
  const text = blocks.map((b) => ('rows' in b ? textRows(b.rows) : 'small' in b ? b.small : b.text)).join('\n\n');
  const body = blocks
    .map((b) =>
      'rows' in b
        ? htmlRows(b.rows)
        : 'small' in b
          ? `<p style="font-size:12px;color:#555">${multiline(b.small)}</p>`
          : `<p>${b.html ?? multiline(b.text)}</p>`,
    )
    .join('\n');
  const html = `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"></head><body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a">\n${body}\n</body></html>\n`;
  return { text: `${text}\n`, html };
}

/** Where the firm's own messages point: the record in the admin portal. */
const portalLink = (link: string): Block => ({
  text: `See it in the admin portal: ${link}`,
  html: `See it in the admin portal: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`,
});

/** The firm's signature, on every message to a visitor. */
const signature: Block[] = [{ text: `${firm.name}\n${firmAddressLine}\n${firm.phone} · ${firm.email}` }];

function appointmentRows(a: AppointmentDetails): Row[] {
  const start = new Date(a.scheduledDate);
  return [
    ['Booking reference', bookingReference(a.id)],
    ['Consultation', consultationTypeLabel(a.consultationType)],
    ['Date', longDateLabel(start)],
    ['Time', timeWithZoneLabel(start)],
    ['Duration', minutes(a.duration)],
    ['Practice area', practiceAreaLabel(a.practiceArea)],
    ['Where', officeLocation],
  ];
}

/**
 * Where the visitor changes the booking: its own link (api/appointments/manage-link.ts) when there is
 * one, and always the office's phone.
 */
const changeHint = (manageUrl: string | null) =>
  manageUrl ? `To reschedule or cancel: ${manageUrl} or call ${firm.phone}.` : `To reschedule or cancel, call ${firm.phone}.`;

/** The attached .ics, and links that add the consultation to Google Calendar or Outlook. */
function calendarLinks(a: AppointmentDetails, manageUrl: string | null): Block {
  const type = consultationTypeLabel(a.consultationType);
  const links = addToCalendarLinks({
    title: `${type} with ${firm.name}`,
    start: new Date(a.scheduledDate),
    minutes: a.duration,
    location: officeLocation,
    details: `Booking reference ${bookingReference(a.id)}. ${changeHint(manageUrl)}`,
  });
  return {
    text: `The attached calendar file (consultation.ics) adds the consultation to your calendar. Or add it to Google Calendar: ${links.google}\nor to Outlook: ${links.outlook}`,
    html: `The attached calendar file (consultation.ics) adds the consultation to your calendar. Or add it to <a href="${escapeHtml(links.google)}">Google Calendar</a> or <a href="${escapeHtml(links.outlook)}">Outlook</a>.`,
  };
}

/** How to change plans: the booking's own page when it has one, and the office's phone. */
function changePlans(manageUrl: string | null): Block {
  const phone = `<a href="${escapeHtml(firm.phoneHref)}">${escapeHtml(firm.phone)}</a> (${escapeHtml(firm.hours.weekdays)})`;
  if (!manageUrl)
    return {
      text: `Need to reschedule or cancel? Please call our office at ${firm.phone} (${firm.hours.weekdays}).`,
      html: `Need to reschedule or cancel? Please call our office at ${phone}.`,
    };
  return {
    text: `Need to reschedule or cancel? Use your booking's page: ${manageUrl}\nor call our office at ${firm.phone} (${firm.hours.weekdays}).`,
    html: `Need to reschedule or cancel? <a href="${escapeHtml(manageUrl)}">Reschedule or cancel online</a>, or call our office at ${phone}.`,
  };
}

/**
 * The SEQUENCE of a calendar object sent about a change: a calendar applies a change only with a
 * higher one than it holds. The booking's invitation is 0; every later change (a move, a
 * cancellation) counts the minutes since 2026 at the change, so a later change always wins, however
 * many came before.
 */
export const changeSequence = (now: Date) => Math.max(1, Math.floor((now.getTime() - Date.UTC(2026, 0, 1)) / 60_000));

function calendarFile(
  a: AppointmentDetails,
  method: 'REQUEST' | 'CANCEL',
  now: Date,
  { sequence = 0, manageUrl = null }: { sequence?: number; manageUrl?: string | null } = {},
): MailAttachment {
  const type = consultationTypeLabel(a.consultationType);
  const content = buildIcs({
    uid: appointmentUid(a.id),
    method,
    sequence,
    start: new Date(a.scheduledDate),
    durationMinutes: a.duration,
    stamp: now,
    summary: `${type} with ${firm.name}`,
    location: officeLocation,
    description: [`${type} (${minutes(a.duration)}) at ${firm.name}.`, changeHint(manageUrl), INQUIRY_DISCLAIMER].join('\n'),
    organizer: { name: firm.name, email: firm.email },
    attendee: { name: fullName(a), email: a.email },
  });
  return {
    filename: method === 'CANCEL' ? 'consultation-cancelled.ics' : 'consultation.ics',
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content,
  };
}

/** To the visitor, at booking: what, when (firm time), where, how to change it; the .ics. */
export function bookingConfirmation(a: AppointmentDetails, { now, manageUrl = null }: { now: Date; manageUrl?: string | null }): OutgoingMail {
  const start = new Date(a.scheduledDate);
  const body = render([
    { text: `Dear ${a.firstName},` },
    { text: `Thank you for scheduling a consultation with ${firm.name}. Your consultation is booked:` },
    { rows: appointmentRows(a) },
    calendarLinks(a, manageUrl),
    changePlans(manageUrl),
    ...signature,
    { small: INQUIRY_DISCLAIMER },
  ]);
  return {
    to: { email: a.email, name: fullName(a) },
    replyTo: { email: firm.email, name: firm.name },
    subject: oneLine(`Your consultation with ${firm.name}: ${whenLabel(start)}`),
    ...body,
    attachments: [calendarFile(a, 'REQUEST', now, { manageUrl })],
  };
}

/**
 * A message to the visitor about their consultation as it now stands: the greeting, `lead`, the
 * details, `after` them, how to change plans, the signature and the disclaimer; with the calendar
 * file that updates the event their calendar holds (same UID, a higher SEQUENCE).
 */
function aboutTheConsultation(
  a: AppointmentDetails,
  { lead, after = [], subject, now, manageUrl }: { lead: string; after?: Block[]; subject: string; now: Date; manageUrl: string | null },
): OutgoingMail {
  const body = render([
    { text: `Dear ${a.firstName},` },
    { text: lead },
    { rows: appointmentRows(a) },
    ...after,
    changePlans(manageUrl),
    ...signature,
    { small: INQUIRY_DISCLAIMER },
  ]);
  return {
    to: { email: a.email, name: fullName(a) },
    replyTo: { email: firm.email, name: firm.name },
    subject: oneLine(subject),
    ...body,
    attachments: [calendarFile(a, 'REQUEST', now, { sequence: changeSequence(now), manageUrl })],
  };
}

/** To the visitor, about a day before: when it is, relative to today in firm time. */
export function appointmentReminder(a: AppointmentDetails, { now, manageUrl = null }: { now: Date; manageUrl?: string | null }): OutgoingMail {
  const start = new Date(a.scheduledDate);
  const day = firmDateOf(start);
  const relative = day === firmDateOf(now) ? 'today' : day === addDays(firmDateOf(now), 1) ? 'tomorrow' : `on ${longDateLabel(start)}`;
  return aboutTheConsultation(a, {
    lead: `This is a reminder of your consultation with ${firm.name} ${relative} at ${timeWithZoneLabel(start)}.`,
    subject: `Reminder: your consultation ${relative} at ${timeWithZoneLabel(start)}`,
    now,
    manageUrl,
  });
}

/** To the visitor, when the firm confirms their consultation: the time again, and an .ics that updates their calendar's event. */
export function appointmentConfirmed(a: AppointmentDetails, { now, manageUrl = null }: { now: Date; manageUrl?: string | null }): OutgoingMail {
  return aboutTheConsultation(a, {
    lead: `${firm.name} has confirmed your consultation. We look forward to speaking with you:`,
    subject: `Confirmed: your consultation on ${whenLabel(new Date(a.scheduledDate))}`,
    now,
    manageUrl,
  });
}

/**
 * To the visitor, when the firm cancels: the .ics removes the event from their calendar. Without
 * `withCalendar` (a booking made through an external scheduler, which sent its own invitation), the
 * notice goes without one: a CANCEL for an event the visitor never received from us would only confuse.
 */
export function appointmentCancellation(
  a: AppointmentDetails,
  { now, siteUrl, withCalendar = true }: { now: Date; siteUrl: string; withCalendar?: boolean },
): OutgoingMail {
  const start = new Date(a.scheduledDate);
  const contactUrl = adminLink(siteUrl, '/contact');
  const body = render([
    { text: `Dear ${a.firstName},` },
    { text: `Your ${consultationTypeLabel(a.consultationType)} with ${firm.name} on ${whenLabel(start)} has been cancelled.` },
    ...(a.cancellationReason ? [{ rows: [['Reason', a.cancellationReason]] as Row[] }] : []),
    {
      text: `To book another time, please call our office at ${firm.phone} (${firm.hours.weekdays}) or schedule online at ${contactUrl}.`,
      html: `To book another time, please call our office at <a href="${escapeHtml(firm.phoneHref)}">${escapeHtml(firm.phone)}</a> (${escapeHtml(firm.hours.weekdays)}) or <a href="${escapeHtml(contactUrl)}">schedule online</a>.`,
    },
    ...(withCalendar ? [{ text: 'The attached calendar file (consultation-cancelled.ics) removes the consultation from your calendar.' }] : []),
    ...signature,
    { small: INQUIRY_DISCLAIMER },
  ]);
  return {
    to: { email: a.email, name: fullName(a) },
    replyTo: { email: firm.email, name: firm.name },
    subject: oneLine(`Cancelled: your consultation on ${whenLabel(start)}`),
    ...body,
    attachments: withCalendar ? [calendarFile(a, 'CANCEL', now, { sequence: changeSequence(now) })] : [],
  };
}

/**
 * To the visitor, when their consultation moved (they moved it through their booking's page): the
 * new time, the old one, and an .ics that updates the event their calendar holds (same UID, higher
 * SEQUENCE).
 */
export function appointmentRescheduled(
  a: AppointmentDetails,
  { now, previousDate, manageUrl = null }: { now: Date; previousDate: string; manageUrl?: string | null },
): OutgoingMail {
  return aboutTheConsultation(a, {
    lead: `Your ${consultationTypeLabel(a.consultationType)} with ${firm.name} has moved from ${whenLabel(new Date(previousDate))} to:`,
    after: [{ text: 'The attached calendar file (consultation.ics) moves the consultation in your calendar.' }],
    subject: `Rescheduled: your consultation is now ${whenLabel(new Date(a.scheduledDate))}`,
    now,
    manageUrl,
  });
}

/** To the firm, when a visitor cancelled or moved their consultation through their booking's page. */
export function visitorChangeNotification(
  a: AppointmentDetails,
  { to, siteUrl, previousDate }: { to: string; siteUrl: string; previousDate: string | null },
): OutgoingMail {
  const start = new Date(a.scheduledDate);
  const link = adminLink(siteUrl, '/admin/appointments');
  const cancelled = a.status === 'cancelled';
  const what = cancelled ? 'cancelled' : 'rescheduled';
  const body = render([
    { text: `${fullName(a)} ${what} their consultation on the website.` },
    {
      rows: [
        ['Name', fullName(a)],
        ['Email', a.email],
        ['Phone', a.phone ?? 'Not given'],
        ['Consultation', `${consultationTypeLabel(a.consultationType)} (${minutes(a.duration)})`],
        ['Was on', cancelled ? whenLabel(start) : previousDate ? whenLabel(new Date(previousDate)) : null],
        cancelled ? ['Now', 'Cancelled; the time is free again'] : ['Now on', whenLabel(start)],
        ['Booking reference', bookingReference(a.id)],
        ['Appointment id', a.id],
      ],
    },
    portalLink(link),
  ]);
  return {
    to: { email: to, name: firm.name },
    replyTo: { email: a.email, name: fullName(a) },
    subject: oneLine(
      cancelled
        ? `Cancelled by the client: ${fullName(a)}, ${longDateLabel(start)} at ${slotLabel(firmTimeOf(start))}`
        : `Rescheduled by the client: ${fullName(a)}, now ${longDateLabel(start)} at ${slotLabel(firmTimeOf(start))}`,
    ),
    ...body,
    attachments: [],
  };
}

/** To the firm, at booking: every detail, notes included, and where to find it in the admin portal. */
export function bookingNotification(a: AppointmentDetails, { to, siteUrl }: { to: string; siteUrl: string }): OutgoingMail {
  const start = new Date(a.scheduledDate);
  const link = adminLink(siteUrl, '/admin/appointments');
  const body = render([
    { text: 'A consultation was booked on the website.' },
    {
      rows: [
        ['Name', fullName(a)],
        ['Email', a.email],
        ['Phone', a.phone ?? 'Not given'],
        ['Consultation', `${consultationTypeLabel(a.consultationType)} (${minutes(a.duration)})`],
        ['Date', longDateLabel(start)],
        ['Time', timeWithZoneLabel(start)],
        ['Practice area', practiceAreaLabel(a.practiceArea)],
        ['Notes', a.notes ?? 'None'],
        ['Appointment id', a.id],
      ],
    },
    portalLink(link),
  ]);
  return {
    to: { email: to, name: firm.name },
    replyTo: { email: a.email, name: fullName(a) },
    // The firm's own subject leaves out the zone's name: the office reads its own time.
    subject: oneLine(
      `New consultation: ${fullName(a)}, ${consultationTypeLabel(a.consultationType)}, ${longDateLabel(start)} at ${slotLabel(firmTimeOf(start))}`,
    ),
    ...body,
    attachments: [],
  };
}

/** To the firm, for each contact form message (SPEC §9: answered within 24 hours). */
export function contactNotification(s: ContactDetails, { to, siteUrl }: { to: string; siteUrl: string }): OutgoingMail {
  const received = new Date(s.createdAt);
  const link = adminLink(siteUrl, '/admin/contact-submissions');
  const body = render([
    { text: 'A message was sent through the website contact form. The visitor was promised an answer within 24 hours.' },
    {
      rows: [
        ['Name', fullName(s)],
        ['Email', s.email],
        ['Phone', s.phone ?? 'Not given'],
        ['Practice area', practiceAreaLabel(s.practiceArea)],
        ['Received', whenLabel(received)],
        ['Message', s.message],
      ],
    },
    portalLink(link),
  ]);
  return {
    to: { email: to, name: firm.name },
    replyTo: { email: s.email, name: fullName(s) },
    subject: oneLine(`New contact message: ${fullName(s)} (${practiceAreaLabel(s.practiceArea)})`),
    ...body,
    attachments: [],
  };
}

/** The Email tab's "Send test e-mail": proof that the active setting delivers, to the admin who asked. */
export function testMessage({ to, provider, now, siteUrl }: { to: string; provider: string; now: Date; siteUrl: string }): OutgoingMail {
  const body = render([
    { text: `This is a test e-mail from the ${firm.name} website, sent through ${provider} at ${whenLabel(now)}.` },
    { text: 'If you are reading it, booking confirmations, reminders and the firm’s notifications can reach their readers too.' },
    portalLink(adminLink(siteUrl, '/admin/integrations')),
  ]);
  return { to: { email: to }, subject: oneLine(`Test e-mail from the ${firm.name} website`), ...body, attachments: [] };
}
