import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { emailKeyOf, INVITATION_DAYS, invitationDigest, invitationLink, invitationMessage, isInvitationToken, newInvitationToken } from './admission.ts';

describe('invitation tokens', () => {
  it('are 256 random bits, 43 base64url characters, never the same twice', () => {
    const tokens = new Set(Array.from({ length: 200 }, newInvitationToken));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      expect(isInvitationToken(token)).toBe(true);
    }
  });

  it('refuses anything of another shape before the database is asked', () => {
    const token = newInvitationToken();
    for (const odd of [
      '',
      token.slice(1),
      `${token}A`,
      `${token.slice(0, 42)}=`,
      `${token.slice(0, 42)}/`,
      `${token.slice(0, 42)}é`,
      ` ${token.slice(1)}`,
      null,
      42,
      undefined,
    ]) {
      expect(isInvitationToken(odd), String(odd)).toBe(false);
    }
  });

  it('are kept as their SHA-256 digest, which is not the token', () => {
    const token = newInvitationToken();
    expect(invitationDigest(token)).toBe(createHash('sha256').update(token).digest('base64url'));
    expect(invitationDigest(token)).not.toContain(token);
    expect(invitationDigest(`${token.slice(0, 42)}A`)).not.toBe(invitationDigest(`${token.slice(0, 42)}B`));
  });
});

describe('the invitation link and e-mail', () => {
  it('puts the token in the fragment of /accept-invitation on the site’s origin (never in the path or query)', () => {
    const link = new URL(invitationLink('https://www.pacificcrestlaw.com/', 'TOKEN'));
    expect(link.origin).toBe('https://www.pacificcrestlaw.com');
    expect(link.pathname).toBe('/accept-invitation');
    expect(link.search).toBe('');
    expect(link.hash).toBe('#TOKEN');
    expect(invitationLink('http://localhost:4321', 'T')).toBe('http://localhost:4321/accept-invitation#T');
  });

  it('says who invited whom, the link, that it works once and when it expires (firm time)', () => {
    const message = invitationMessage(
      { email: 'dana@elsewhere.test', invitedBy: 'ana.partner', expiresAt: new Date('2027-01-08T18:30:00Z') },
      'https://firm.example/accept-invitation#T',
    );
    expect(message.to).toBe('dana@elsewhere.test');
    expect(message.subject).toBe("You are invited to be an admin of Pacific Crest Law Group's website");
    expect(message.text).toContain('ana.partner invited you');
    expect(message.text).toContain('as dana@elsewhere.test');
    expect(message.text).toContain('https://firm.example/accept-invitation#T');
    expect(message.text).toMatch(/works once and expires on .*Jan.* 8, 2027.*10:30 AM/);
  });

  it('lasts seven days', () => {
    expect(INVITATION_DAYS).toBe(7);
  });
});

describe('emailKeyOf (one account per address)', () => {
  it('ignores case, surrounding spaces and Unicode compatibility forms', () => {
    expect(emailKeyOf(' Ana.Partner@Firm.TEST ')).toBe('ana.partner@firm.test');
    // Fullwidth letters are the same address once NFKC-normalised.
    expect(emailKeyOf('ａｎａ@firm.test')).toBe('ana@firm.test');
    expect(emailKeyOf('ana@firm.test')).not.toBe(emailKeyOf('anna@firm.test'));
  });
});
