import { describe, expect, it } from 'vitest';
import { parseAllowlist } from './admin-allowlist.ts';

describe('parseAllowlist', () => {
  const list = parseAllowlist(' Ana@Firm.com , @pacificcrestlaw.com,,');
  it('matches exact addresses and whole domains, ignoring case and spaces', () => {
    expect(list.entries).toEqual(['ana@firm.com', '@pacificcrestlaw.com']);
    expect(list.allows('ana@firm.com')).toBe(true);
    expect(list.allows(' ANA@FIRM.COM ')).toBe(true);
    expect(list.allows('anyone@pacificcrestlaw.com')).toBe(true);
  });
  it('does not match look-alikes, subdomains, other addresses of a listed one, or nothing', () => {
    expect(list.allows('bob@firm.com')).toBe(false);
    expect(list.allows('x@mail.pacificcrestlaw.com')).toBe(false);
    expect(list.allows('x@pacificcrestlaw.com.evil.test')).toBe(false);
    expect(list.allows('@pacificcrestlaw.com')).toBe(false);
    expect(list.allows(null)).toBe(false);
    expect(list.allows('')).toBe(false);
  });
  it('reads the whole address: a second @, quotes, comments or spaces never match a listed domain', () => {
    for (const address of [
      'attacker@evil.test@pacificcrestlaw.com',
      '"x@pacificcrestlaw.com"@evil.test',
      'x@evil.test (x@pacificcrestlaw.com)',
      'a b@pacificcrestlaw.com',
      '<x@pacificcrestlaw.com>',
      'x@@pacificcrestlaw.com',
    ]) {
      expect(list.allows(address), address).toBe(false);
    }
  });
  it('allows nobody when empty', () => {
    expect(parseAllowlist('').allows('ana@firm.com')).toBe(false);
  });
});
