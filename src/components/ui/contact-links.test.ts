import { describe, expect, it } from 'vitest';
import { mailtoHref, telHref } from './contact-links.tsx';

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
