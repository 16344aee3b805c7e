import { describe, expect, it } from 'vitest';
import { addToCalendarLinks, bookingReference, visitorTimeLabel } from './self-service.ts';

describe('self-service', () => {
  it('makes a short reference from the appointment id', () => {
    expect(bookingReference('3f2a9c1b-0d4e-4f5a-8b6c-7d8e9f0a1b2c')).toBe('3F2A-9C1B');
  });

  it('fills Google Calendar and Outlook with the consultation, in UTC', () => {
    const links = addToCalendarLinks({
      title: 'Initial Consultation with Pacific Crest Law Group',
      start: new Date('2030-07-15T16:00:00Z'),
      minutes: 30,
      location: '600 West Broadway, San Diego',
      details: 'Booking reference 3F2A-9C1B',
    });
    const google = new URL(links.google);
    expect(google.origin + google.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(google.searchParams.get('action')).toBe('TEMPLATE');
    expect(google.searchParams.get('dates')).toBe('20300715T160000Z/20300715T163000Z');
    expect(google.searchParams.get('text')).toBe('Initial Consultation with Pacific Crest Law Group');
    const outlook = new URL(links.outlook);
    expect(outlook.hostname).toBe('outlook.live.com');
    expect(outlook.searchParams.get('startdt')).toBe('2030-07-15T16:00:00.000Z');
    expect(outlook.searchParams.get('enddt')).toBe('2030-07-15T16:30:00.000Z');
    expect(outlook.searchParams.get('location')).toBe('600 West Broadway, San Diego');
  });

  it("gives a visitor elsewhere the consultation in their own time, and nothing in the firm's zone", () => {
    const nineAm = new Date('2030-07-15T16:00:00Z'); // 9:00 AM in San Diego
    expect(visitorTimeLabel(nineAm, 'Pacific/Kiritimati', 'America/Los_Angeles')).toBe('6:00 AM Tuesday, July 16 in your time zone (Pacific/Kiritimati)');
    expect(visitorTimeLabel(nineAm, 'America/Los_Angeles', 'America/Los_Angeles')).toBeNull();
    expect(visitorTimeLabel(nineAm, 'America/Tijuana', 'America/Los_Angeles')).toBeNull(); // the same clock
    expect(visitorTimeLabel(nineAm, '', 'America/Los_Angeles')).toBeNull();
  });
});
