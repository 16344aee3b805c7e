import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { allowlistEntryLabel, memberBadges, refusalMessage, removalConsequences, removedMessage } from './admins.ts';

const member = { isYou: false, enabled: true, status: 'CONFIRMED', alsoByEmail: false };

describe('a member row', () => {
  it('marks the caller, a disabled account, an unusual status and an address on ADMIN_EMAILS', () => {
    expect(memberBadges(member)).toEqual([]);
    expect(memberBadges({ ...member, isYou: true })).toEqual(['You']);
    expect(memberBadges({ isYou: false, enabled: false, status: 'FORCE_CHANGE_PASSWORD', alsoByEmail: true })).toEqual([
      'Disabled',
      'Must change password',
      'Also on ADMIN_EMAILS',
    ]);
    expect(memberBadges({ ...member, status: 'SOMETHING_NEW' })).toEqual(['SOMETHING_NEW']);
  });

  it('says what an ADMIN_EMAILS entry admits', () => {
    expect(allowlistEntryLabel('ana@firm.com')).toBe('ana@firm.com');
    expect(allowlistEntryLabel('@pacificcrestlaw.com')).toBe('Anyone with a verified address at pacificcrestlaw.com');
  });
});

describe('removing a member', () => {
  it('names the person, says they are signed out, and how they come back', () => {
    const text = removalConsequences({ username: 'ben.clerk', email: 'ben@firm.com', alsoByEmail: false }, 'embedded');
    expect(text).toBe(
      'ben.clerk (ben@firm.com) will be signed out at once, on every device, and can no longer use the admin portal. Their account stays: npm run admin:add -- --username ben.clerk on the server makes them an admin again (or npm run admin:create makes a new account).',
    );
  });

  it('with a Cognito pool, within a minute; and warns when ADMIN_EMAILS keeps them an admin', () => {
    const text = removalConsequences({ username: 'cy', email: null, alsoByEmail: true }, 'cognito');
    expect(text).toMatch(/^cy will be signed out on every device; the admin portal refuses them within a minute\./);
    expect(text).toMatch(/Their address is on ADMIN_EMAILS, so they can still sign in as an admin until it is taken off\.$/);
  });

  it('reports the outcome, and the server’s reason for a refusal', () => {
    expect(removedMessage({ username: 'ben', stillAdminByEmail: false })).toBe('ben is no longer an admin and has been signed out.');
    expect(removedMessage({ username: 'cy', stillAdminByEmail: true })).toMatch(/^cy is out of the admin group and signed out, but/);
    const refused = new ApiError(409, JSON.stringify({ error: 'You cannot remove yourself: ask another admin.', requestId: 'r' }));
    expect(refusalMessage(refused, 'Failed to remove admin')).toBe('You cannot remove yourself: ask another admin.');
    expect(refusalMessage(new ApiError(502, 'Bad Gateway'), 'Failed to remove admin')).toBe('Failed to remove admin');
    expect(refusalMessage(new TypeError('fetch failed'), 'Failed to remove admin')).toBe('Failed to remove admin');
  });
});
