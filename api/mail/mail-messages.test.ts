/**
 * The e-mail texts: firm time with the zone named, the details each recipient needs, the inquiry
 * disclaimer, escaping of everything a visitor typed, subjects on one line.
 */
import { describe, expect, it } from 'vitest';
import { bookingReference } from '../../src/shared/booking/self-service.ts';
import {
  appointmentCancellation,
  appointmentReminder,
  appointmentRescheduled,
  bookingConfirmation,
  changeSequence,
  bookingNotification,
  contactNotification,
  INQUIRY_DISCLAIMER,
  visitorChangeNotification,
  type AppointmentDetails,
  type ContactDetails,
} from './mail-messages.ts';

const appointment: AppointmentDetails = {
  id: 'a1b2c3',
  firstName: 'Maria',
  lastName: 'Lopez',
  email: 'maria.lopez@example.com',
  phone: '(619) 555-0142',
  consultationType: 'estate-planning',
  practiceArea: 'trust-administration',
  notes: 'Questions about my late father’s trust.\nSecond line.',
  // Monday 11 March 2030, the day after daylight time starts: 9:00 AM PDT.
  scheduledDate: '2030-03-11T16:00:00.000Z',
  duration: 60,
  status: 'scheduled',
};

const hostile = {
  ...appointment,
  firstName: '<script>alert(1)</script>',
  lastName: 'O\'Brien & "Sons"\r\nBcc: x@evil.test',
  notes: '<img src=x onerror=alert(2)>',
};

const submission: ContactDetails = {
  id: 'c1',
  firstName: 'Ana',
  lastName: 'Ruiz',
  email: 'ana@example.com',
  phone: null,
  practiceArea: 'estate-planning',
  message: 'I would like a living trust.\n<b>Thanks</b>',
  createdAt: '2030-03-11T17:45:00.000Z',
};

const now = new Date('2030-03-01T18:00:00.000Z');
const siteUrl = 'https://www.example-firm.com';

describe('booking confirmation', () => {
  const mail = bookingConfirmation(appointment, { now });

  it('says what, when in firm time with the zone named, how long, where, how to change it, and the disclaimer', () => {
    expect(mail.to).toEqual({ email: 'maria.lopez@example.com', name: 'Maria Lopez' });
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain('Estate Planning Review');
      expect(body).toContain('Monday, March 11, 2030');
      expect(body).toContain('9:00 AM Pacific Time (San Diego)');
      expect(body).toContain('60 minutes');
      expect(body).toContain('600 West Broadway, Suite 1200, San Diego, CA 92101');
      expect(body).toContain('(619) 555-0123');
      expect(body).toMatch(/reschedule or cancel/i);
      expect(body).toContain(INQUIRY_DISCLAIMER);
    }
    expect(INQUIRY_DISCLAIMER).toMatch(/does not create an attorney-client relationship/);
    expect(mail.subject).toBe('Your consultation with Pacific Crest Law Group: Monday, March 11, 2030 at 9:00 AM Pacific Time (San Diego)');
  });

  it('gives the booking reference and links that add the consultation to Google Calendar and Outlook', () => {
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain(`Booking reference`);
      expect(body).toContain(bookingReference(appointment.id));
      expect(body).toContain('https://calendar.google.com/calendar/render?action=TEMPLATE');
      expect(body).toContain('20300311T160000Z');
      expect(body).toContain('https://outlook.live.com/calendar/0/action/compose');
    }
    expect(mail.html).toMatch(/<a href="https:\/\/calendar\.google\.com[^"]*">Google Calendar<\/a>/);
  });

  it('attaches the calendar invitation', () => {
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: 'consultation.ics', contentType: 'text/calendar; charset=utf-8; method=REQUEST' });
    expect(mail.attachments[0]!.content).toContain('DTSTART;TZID=America/Los_Angeles:20300311T090000');
    expect(mail.attachments[0]!.content).toContain('UID:appointment-a1b2c3@pacificcrestlaw.com');
  });
});

describe('escaping', () => {
  it('escapes every visitor-supplied value in the HTML and keeps subjects on one line', () => {
    for (const mail of [
      bookingConfirmation(hostile, { now }),
      bookingNotification(hostile, { to: 'intake@firm.example', siteUrl }),
      appointmentReminder(hostile, { now }),
      appointmentCancellation(hostile, { now, siteUrl }),
    ]) {
      expect(mail.html).not.toContain('<script>');
      expect(mail.html).not.toContain('<img');
      expect(mail.html).not.toContain('"Sons"');
      expect(mail.subject).not.toMatch(/[\r\n]/);
    }
    const notification = bookingNotification(hostile, { to: 'intake@firm.example', siteUrl });
    expect(notification.html).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(notification.html).toContain('O&#39;Brien &amp; &quot;Sons&quot;');
    expect(notification.subject).toContain('Bcc: x@evil.test'); // flattened into the subject text, not a header
    const contact = contactNotification({ ...submission, lastName: '<b>Ruiz</b>' }, { to: 'intake@firm.example', siteUrl });
    expect(contact.html).toContain('&lt;b&gt;Thanks&lt;/b&gt;');
    expect(contact.html).not.toContain('<b>Ruiz</b>');
  });
});

describe('firm notifications', () => {
  it('give the firm every booking detail, notes included, and a link to the admin appointments', () => {
    const mail = bookingNotification(appointment, { to: 'intake@firm.example', siteUrl });
    expect(mail.to.email).toBe('intake@firm.example');
    expect(mail.replyTo).toEqual({ email: 'maria.lopez@example.com', name: 'Maria Lopez' });
    for (const part of [
      'Maria Lopez',
      'maria.lopez@example.com',
      '(619) 555-0142',
      'Estate Planning Review (60 minutes)',
      'Monday, March 11, 2030',
      '9:00 AM Pacific Time (San Diego)',
      'Trust Administration',
      'Second line.',
      'https://www.example-firm.com/admin/appointments',
    ]) {
      expect(mail.text).toContain(part);
    }
    expect(mail.html).toContain('href="https://www.example-firm.com/admin/appointments"');
  });

  it('give the firm the contact message and a link to the admin contact submissions', () => {
    const mail = contactNotification(submission, { to: 'intake@firm.example', siteUrl });
    for (const part of [
      'Ana Ruiz',
      'ana@example.com',
      'Not given',
      'Estate Planning',
      'I would like a living trust.',
      'Monday, March 11, 2030 at 10:45 AM Pacific Time (San Diego)',
      'https://www.example-firm.com/admin/contact-submissions',
    ]) {
      expect(mail.text).toContain(part);
    }
    expect(mail.subject).toBe('New contact message: Ana Ruiz (Estate Planning)');
  });
});

describe('reminder and cancellation', () => {
  it("reminds about tomorrow's consultation, judged in firm time, with the invitation again", () => {
    // 10:00 AM PDT the day before.
    const mail = appointmentReminder(appointment, { now: new Date('2030-03-10T17:00:00.000Z') });
    expect(mail.subject).toBe('Reminder: your consultation tomorrow at 9:00 AM Pacific Time (San Diego)');
    expect(mail.text).toContain('tomorrow at 9:00 AM Pacific Time (San Diego)');
    expect(mail.attachments[0]!.content).toContain('METHOD:REQUEST');
    // 7:00 AM PDT the same day: today.
    expect(appointmentReminder(appointment, { now: new Date('2030-03-11T14:00:00.000Z') }).subject).toContain('today at 9:00 AM');
  });

  it('cancels with METHOD:CANCEL for the same event', () => {
    const mail = appointmentCancellation(appointment, { now, siteUrl });
    expect(mail.subject).toBe('Cancelled: your consultation on Monday, March 11, 2030 at 9:00 AM Pacific Time (San Diego)');
    expect(mail.text).toContain('has been cancelled');
    const ics = mail.attachments[0]!;
    expect(ics.contentType).toBe('text/calendar; charset=utf-8; method=CANCEL');
    expect(ics.content).toContain('METHOD:CANCEL');
    // Later than the invitation (0) and than any change made before this one.
    expect(ics.content).toContain(`SEQUENCE:${changeSequence(now)}`);
    expect(changeSequence(now)).toBeGreaterThan(0);
    expect(changeSequence(new Date(now.getTime() + 60_000))).toBeGreaterThan(changeSequence(now));
    expect(ics.content).toContain('UID:appointment-a1b2c3@pacificcrestlaw.com');
  });
});

describe('self-service', () => {
  const manageUrl = 'https://www.example-firm.com/manage-booking#a1b2c3.signature';

  it('the confirmation and the reminder give the booking’s own page to reschedule or cancel, and the phone', () => {
    for (const mail of [bookingConfirmation(appointment, { now, manageUrl }), appointmentReminder(appointment, { now, manageUrl })]) {
      expect(mail.text).toContain(`Need to reschedule or cancel? Use your booking's page: ${manageUrl}`);
      expect(mail.text).toContain('(619) 555-0123');
      expect(mail.html).toContain(`<a href="${manageUrl}">Reschedule or cancel online</a>`);
      expect(mail.attachments[0]!.content.replace(/\r\n /g, '')).toContain(manageUrl);
    }
    // Without a page (a booking made through another scheduler), the phone alone.
    expect(bookingConfirmation(appointment, { now }).text).toContain('Need to reschedule or cancel? Please call our office at (619) 555-0123');
  });

  it('tells the visitor of a move, old and new time, with an .ics that moves the same event', () => {
    const moved = { ...appointment, scheduledDate: '2030-03-12T20:00:00.000Z' };
    const mail = appointmentRescheduled(moved, { now, previousDate: appointment.scheduledDate, manageUrl });
    expect(mail.subject).toBe('Rescheduled: your consultation is now Tuesday, March 12, 2030 at 1:00 PM Pacific Time (San Diego)');
    expect(mail.text).toContain('has moved from Monday, March 11, 2030 at 9:00 AM Pacific Time (San Diego) to:');
    expect(mail.text).toContain(INQUIRY_DISCLAIMER);
    const ics = mail.attachments[0]!.content;
    expect(ics).toContain('METHOD:REQUEST');
    expect(ics).toContain('UID:appointment-a1b2c3@pacificcrestlaw.com');
    expect(ics).toContain(`SEQUENCE:${changeSequence(now)}`);
    expect(ics).toContain('DTSTART;TZID=America/Los_Angeles:20300312T130000');
  });

  it('tells the firm what the visitor did, and where it was', () => {
    const cancelled = visitorChangeNotification({ ...appointment, status: 'cancelled' }, { to: 'intake@firm.example', siteUrl, previousDate: null });
    expect(cancelled.subject).toBe('Cancelled by the client: Maria Lopez, Monday, March 11, 2030 at 9:00 AM');
    expect(cancelled.text).toContain('Maria Lopez cancelled their consultation on the website.');
    expect(cancelled.replyTo).toEqual({ email: 'maria.lopez@example.com', name: 'Maria Lopez' });
    const moved = visitorChangeNotification(
      { ...appointment, scheduledDate: '2030-03-12T20:00:00.000Z' },
      { to: 'intake@firm.example', siteUrl, previousDate: appointment.scheduledDate },
    );
    expect(moved.subject).toBe('Rescheduled by the client: Maria Lopez, now Tuesday, March 12, 2030 at 1:00 PM');
    expect(moved.text).toContain('Was on: Monday, March 11, 2030 at 9:00 AM Pacific Time (San Diego)');
    expect(moved.text).toContain('Now on: Tuesday, March 12, 2030 at 1:00 PM Pacific Time (San Diego)');
    // What a visitor typed is escaped in the HTML.
    expect(visitorChangeNotification(hostile, { to: 'x@firm.example', siteUrl, previousDate: null }).html).not.toContain('<script>');
    expect(visitorChangeNotification(hostile, { to: 'x@firm.example', siteUrl, previousDate: null }).subject).not.toMatch(/[\r\n]/);
  });
});
