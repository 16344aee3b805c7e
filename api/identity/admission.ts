/**
 * How one becomes an admin of the embedded identity service (docs/decisions/041): an admin invites a
 * colleague, or approves a confirmed sign-up's request. An invitation is a single-use link with a
 * 256-bit token, valid for INVITATION_DAYS, e-mailed through the identity service's own mail path (the
 * email setting, else the development outbox); only the token's SHA-256 digest is kept. Its holder
 * chooses a username and a password (the sign-up's policy) and is a confirmed admin at once.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { firm } from '../../src/config/firm.ts';
import { formatFirmDateTime } from '../../src/shared/firm-time.ts';
import type { Clock } from '../clock.ts';
import { hashPassword } from '../crypto/password-hash.ts';
import type { Database } from '../../db/client.ts';
import { admissionRepository, emailKeyOf, type Invitation } from './admission.repository.ts';
import { keyOf as usernameKeyOf } from './embedded-identity.ts';
import { identityRepository } from './identity.repository.ts';
import { passwordProblem } from './password-policy.ts';

/**
 * Seven days: long enough for a colleague away for a long weekend or a week's holiday to find it, short
 * enough that a link forgotten in a mailbox does not stay a way in (Cognito's AdminCreateUser
 * temporary passwords default to 7 days; Okta's activation links to 7).
 */
export const INVITATION_DAYS = 7;
/** More pending invitations than a firm ever needs: a stolen session cannot mail-bomb through the form. */
export const MAX_PENDING_INVITATIONS = 50;

/** 32 random bytes, base64url: 43 characters, 256 bits. */
export const newInvitationToken = () => randomBytes(32).toString('base64url');
export const isInvitationToken = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
/** A 256-bit random token needs no key or salt to be safe at rest: its digest cannot be reversed or guessed. */
export const invitationDigest = (token: string) => createHash('sha256').update(token).digest('base64url');

/** The link to the page that accepts it: the token in the fragment, which no request carries (logs, CDN, Referer). */
export const invitationLink = (siteUrl: string, token: string) => new URL(`/accept-invitation#${token}`, siteUrl).toString();

export interface IdentityMail {
  to: string;
  subject: string;
  text: string;
}
/** Whether a message went by e-mail, or was kept in the development outbox (no email setting). */
export type MailOutcome = 'sent' | 'held';

/** The invitation e-mail. */
export function invitationMessage(invitation: { email: string; invitedBy: string; expiresAt: Date }, link: string): IdentityMail {
  return {
    to: invitation.email,
    subject: `You are invited to be an admin of ${firm.name}'s website`,
    text: [
      `${invitation.invitedBy} invited you to the admin portal of ${firm.name}'s website, as ${invitation.email}.`,
      '',
      `To accept, open this link, choose a username and a password: ${link}`,
      '',
      `The link works once and expires on ${formatFirmDateTime(invitation.expiresAt)}. If you did not expect it, ignore this message.`,
    ].join('\n'),
  };
}

export interface AdmissionDeps {
  database: Database;
  clock: Clock;
  /** The public origin the link opens (SITE_URL). */
  siteUrl: string;
  /** The identity service's mail path (api/identity/identity.ts deliverIdentityMail). */
  send(message: IdentityMail): Promise<MailOutcome>;
}

export { emailKeyOf };

export type InviteOutcome =
  | { outcome: 'invited'; invitation: Invitation; link: string; delivered: MailOutcome; superseded: number }
  | { outcome: 'address-taken' | 'too-many' };

export type AcceptOutcome =
  | { outcome: 'accepted'; username: string }
  | { outcome: 'invalid' | 'username-taken' | 'address-taken' }
  | { outcome: 'password'; message: string };

export function embeddedInvitations({ database, clock, siteUrl, send }: AdmissionDeps) {
  const repo = admissionRepository(database);
  const users = identityRepository(database);
  const now = () => clock.now();

  /** A pending invitation for a token of the right shape, else null: every other case answers alike. */
  const pendingFor = (token: unknown) => (isInvitationToken(token) ? repo.pendingByDigest(invitationDigest(token), now()) : Promise.resolve(null));

  return {
    /** Invites an address with no confirmed account; an earlier pending invitation to it is revoked. */
    async create({ email, invitedBy }: { email: string; invitedBy: string }): Promise<InviteOutcome> {
      const at = now();
      const address = emailKeyOf(email);
      if (await repo.confirmedAccountWith(address)) return { outcome: 'address-taken' };
      if ((await repo.pendingCount(at)) >= MAX_PENDING_INVITATIONS) return { outcome: 'too-many' };
      const token = newInvitationToken();
      const expiresAt = new Date(at.getTime() + INVITATION_DAYS * 86_400_000);
      const { invitation, superseded } = await repo.insertInvitation({ email: address, tokenHash: invitationDigest(token), invitedBy, expiresAt }, at);
      const link = invitationLink(siteUrl, token);
      const delivered = await send(invitationMessage(invitation, link));
      return { outcome: 'invited', invitation, link, delivered, superseded };
    },

    pending: () => repo.pendingInvitations(now()),

    /** True when it was pending (and now is not). */
    revoke: async (id: string) => Boolean(await repo.revokeInvitation(id, now())),

    /** What the link's page shows: the address, who invited, until when; null for any link that cannot be used. */
    async lookup(token: unknown) {
      const invitation = await pendingFor(token);
      return invitation ? { email: invitation.email, invitedBy: invitation.invitedBy, expiresAt: invitation.expiresAt } : null;
    },

    /**
     * The holder's account, a confirmed admin, if the invitation is still pending when it is taken
     * (repository: compare-and-set). The checks that need no account come first; the password's last.
     */
    async accept(token: unknown, account: { username: string; password: string }): Promise<AcceptOutcome> {
      const invitation = await pendingFor(token);
      if (!invitation || !isInvitationToken(token)) return { outcome: 'invalid' };
      const usernameKey = usernameKeyOf(account.username);
      if (await users.userByName(usernameKey)) return { outcome: 'username-taken' };
      const emailKey = emailKeyOf(invitation.email);
      if (await repo.confirmedAccountWith(emailKey)) return { outcome: 'address-taken' };
      const problem = await passwordProblem(account.password, { username: account.username, email: invitation.email });
      if (problem) return { outcome: 'password', message: problem };
      const result = await repo.acceptInvitation(invitationDigest(token), now(), {
        id: randomUUID(),
        username: account.username,
        usernameKey,
        email: invitation.email,
        emailKey,
        passwordHash: await hashPassword(account.password),
      });
      return result.outcome === 'accepted' ? { outcome: 'accepted', username: result.user.username } : result;
    },
  };
}

export type EmbeddedInvitations = ReturnType<typeof embeddedInvitations>;
