import { describe, expect, it } from 'vitest';
import { mailtoHref, telHref } from './contact-links.tsx';
import { formatFirmDate, formatFirmDateTime, formatFirmTime, formatFirmTimeRange } from './firm-datetime.ts';

describe('telHref', () => {
  it('dials North American numbers with +1 and keeps international ones', () => {
    expect(telHref('(619) 555-0199')).toBe('tel:+16195550199');
    expect(telHref('1-619-555-0199')).toBe('tel:+16195550199');
    expect(telHref('+44 20 7946 0958')).toBe('tel:+442079460958');
    expect(telHref('555-0199')).toBe('tel:5550199');
  });
  it('keeps an extension and refuses what cannot be dialled', () => {
    expect(telHref('(619) 555-0199 ext. 12')).toBe('tel:+16195550199;ext=12');
    expect(telHref('619.555.0199 x7')).toBe('tel:+16195550199;ext=7');
    expect(telHref('12')).toBeNull();
    expect(telHref('')).toBeNull();
    expect(telHref(null)).toBeNull();
  });
});

describe('mailtoHref', () => {
  it('encodes the address and the subject', () => {
    expect(mailtoHref('maria@example.com')).toBe('mailto:maria@example.com');
    expect(mailtoHref('a+b@example.com', 'Your Family Law inquiry & more')).toBe('mailto:a%2Bb@example.com?subject=Your%20Family%20Law%20inquiry%20%26%20more');
  });
});

describe('firm date and time (America/Los_Angeles, whatever the process zone)', () => {
  it('shows summer times as PDT and winter times as PST', () => {
    expect(formatFirmDate('2026-07-14T17:30:00.000Z')).toBe('Tue, Jul 14, 2026');
    expect(formatFirmTime('2026-07-14T17:30:00.000Z')).toBe('10:30 AM PDT');
    expect(formatFirmTime('2026-12-01T17:30:00.000Z')).toBe('9:30 AM PST');
    expect(formatFirmDateTime('2026-12-01T17:30:00.000Z')).toBe('Tue, Dec 1, 2026 at 9:30 AM PST');
    // 4:30 PM in San Diego is already the next day in UTC.
    expect(formatFirmDate('2026-07-15T00:30:00.000Z')).toBe('Tue, Jul 14, 2026');
    expect(formatFirmTimeRange('2026-07-14T17:30:00.000Z', 60)).toBe('10:30 AM – 11:30 AM PDT');
  });
});
