import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import {
  allowlistEntryLabel,
  decidedMessage,
  decisionConsequences,
  invitedMessage,
  memberBadges,
  refusalMessage,
  removalConsequences,
  removedMessage,
  revokeConsequences,
} from './admins.ts';

const member = { isYou: false, enabled: true, status: 'CONFIRMED' };

describe('a member row', () => {
  it('marks the caller, a disabled account and an unusual status (ADMIN_EMAILS makes no one an admin, so it is no badge)', () => {
    expect(memberBadges(member)).toEqual([]);
    expect(memberBadges({ ...member, isYou: true })).toEqual(['You']);
    expect(memberBadges({ isYou: false, enabled: false, status: 'FORCE_CHANGE_PASSWORD' })).toEqual(['Disabled', 'Must change password']);
    expect(memberBadges({ ...member, status: 'SOMETHING_NEW' })).toEqual(['SOMETHING_NEW']);
  });

  it('says what an ADMIN_EMAILS entry lets sign up', () => {
    expect(allowlistEntryLabel('ana@firm.com')).toBe('ana@firm.com');
    expect(allowlistEntryLabel('@pacificcrestlaw.com')).toBe('Anyone with a verified address at pacificcrestlaw.com');
  });
});

describe('removing a member', () => {
  it('names the person, says they are signed out, and how they come back', () => {
    const text = removalConsequences({ username: 'ben.clerk', email: 'ben@firm.com', onAllowlist: false }, 'embedded');
    expect(text).toBe(
      'ben.clerk (ben@firm.com) will be signed out at once, on every device, and can no longer use the admin portal. Their account stays: npm run admin:add -- --username ben.clerk on the server makes them an admin again (or npm run admin:create makes a new account).',
    );
  });

  it('with a Cognito pool, within a minute; and says that an address on ADMIN_EMAILS only lets them ask again', () => {
    const text = removalConsequences({ username: 'cy', email: null, onAllowlist: true }, 'cognito');
    expect(text).toMatch(/^cy will be signed out on every device; the admin portal refuses them within a minute\./);
    expect(text).toMatch(/Their address is on ADMIN_EMAILS: if they sign in again, they are listed under Requests, for an admin to approve or refuse\.$/);
  });

  it('reports the outcome, and the server’s reason for a refusal', () => {
    expect(removedMessage({ username: 'ben', mayAskAgain: false })).toBe('ben is no longer an admin and has been signed out.');
    expect(removedMessage({ username: 'cy', mayAskAgain: true })).toMatch(
      /^cy is no longer an admin and has been signed out\. Their address is on ADMIN_EMAILS/,
    );
    const refused = new ApiError(409, JSON.stringify({ error: 'You cannot remove yourself: ask another admin.', requestId: 'r' }));
    expect(refusalMessage(refused, 'Failed to remove admin')).toBe('You cannot remove yourself: ask another admin.');
    expect(refusalMessage(new ApiError(502, 'Bad Gateway'), 'Failed to remove admin')).toBe('Failed to remove admin');
    expect(refusalMessage(new TypeError('fetch failed'), 'Failed to remove admin')).toBe('Failed to remove admin');
  });
});

describe('deciding a request', () => {
  const row = { username: 'bea', email: 'bea@firm.com', requestedAt: '2026-11-27T18:00:00.000Z' };
  it('says before approving that they will see everything, at once (or from their next sign-in with Cognito)', () => {
    expect(decisionConsequences(row, 'approve', 'embedded')).toBe(
      "bea (bea@firm.com) will be an admin at once: they can see and change everything in the admin portal, clients' messages included. Approve only someone you know to be at the firm.",
    );
    expect(decisionConsequences(row, 'approve', 'cognito')).toMatch(/^bea \(bea@firm\.com\) will be an admin from their next sign-in \(within the hour\)/);
  });
  it('says before refusing that the account is disabled and the address stays taken', () => {
    expect(decisionConsequences(row, 'refuse', 'embedded')).toBe(
      'bea (bea@firm.com) will be signed out and their account disabled. The address stays taken, so they cannot sign up or ask again unless an admin lets them in (npm run admin:add -- --username bea on the server).',
    );
  });
  it('reports what was done', () => {
    expect(decidedMessage({ username: 'bea', outcome: 'approved' })).toBe('bea is now an admin.');
    expect(decidedMessage({ username: 'bea', outcome: 'refused' })).toBe('bea was refused: their account is disabled and signed out.');
  });
});

describe('invitations', () => {
  const invited = { email: 'dana@elsewhere.test', expiresAt: '2026-12-04T18:00:00.000Z', superseded: 0 };
  it('e-mailed: says to whom and until when the link works', () => {
    expect(invitedMessage({ ...invited, delivered: 'sent' })).toBe(
      'An invitation was e-mailed to dana@elsewhere.test. The link works once, until Fri, Dec 4, 2026 at 10:00 AM PST.',
    );
  });
  it('held (no e-mail configured): says to pass the link on, that it is shown only now, and when an earlier one was replaced', () => {
    const text = invitedMessage({ ...invited, delivered: 'held', superseded: 1 });
    expect(text).toMatch(
      /^No e-mail is configured, so the invitation was not sent\. Copy the link below and send it to dana@elsewhere\.test yourself: it is shown only now\./,
    );
    expect(text).toMatch(/The earlier invitation to this address no longer works\.$/);
  });
  it('revoking says the link stops working at once', () => {
    expect(revokeConsequences({ email: 'dana@elsewhere.test', invitedBy: 'ana' })).toBe(
      'The link sent to dana@elsewhere.test (invited by ana) will stop working at once. You can invite them again later.',
    );
  });
});
