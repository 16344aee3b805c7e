import { describe, expect, it } from 'vitest';
import { money, normalizeMoney, optionalText, phone } from './fields.ts';

describe('money', () => {
  const m = money('Amount');
  it('normalises to two decimal places as text', () => {
    expect(m.parse('1200')).toBe('1200.00');
    expect(m.parse('1,250,000.5')).toBe('1250000.50');
    expect(m.parse(42)).toBe('42.00');
    expect(m.parse('0007.10')).toBe('7.10');
    expect(m.parse('9999999999.99')).toBe('9999999999.99');
  });
  it('refuses misplaced separators, extra decimals, negatives, overflow and junk', () => {
    for (const bad of ['1,2,3', '12,34', '1.234', '-5', '10000000000', '1e3', 'abc', '', ' ', '1.2.3']) {
      expect(m.safeParse(bad).success, bad).toBe(false);
    }
  });
  it('normalizeMoney keeps exact digits (no float)', () => {
    expect(normalizeMoney('12345678901234567890.1')).toBe('12345678901234567890.10');
  });
});

describe('optionalText and phone', () => {
  it('turn blank into null', () => {
    expect(optionalText('Notes', 10).parse('   ')).toBeNull();
    expect(optionalText('Notes', 10).parse(undefined)).toBeNull();
    expect(phone.parse('')).toBeNull();
    expect(phone.parse(' (619) 555-0123 ')).toBe('(619) 555-0123');
  });
  it('refuses a phone with letters', () => {
    expect(phone.safeParse('call me').success).toBe(false);
  });
});
