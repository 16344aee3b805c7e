/**
 * Who administers the site, as the user pool keeps it (docs/decisions/030 and 041): the members of its
 * `admin` group, the requests to join it (confirmed sign-ups on ADMIN_EMAILS) and, where the portal
 * can make accounts, the invitations; read and changed through one interface whichever pool runs: the
 * embedded identity service (below) or a real Cognito pool (cognito-admin-directory.ts). The group
 * alone makes an admin; ADMIN_EMAILS only says who may ask.
 */
import type { EmailAllowlist } from '../auth/admin-allowlist.ts';
import type { AcceptOutcome, InviteOutcome } from '../identity/admission.ts';
import type { EmbeddedIdentity } from '../identity/embedded-identity.ts';

export interface AdminMember {
  username: string;
  /** The account's stable id (Cognito's `sub`, the embedded service's user id): how the caller is recognised. */
  sub: string | null;
  email: string | null;
  emailVerified: boolean;
  enabled: boolean;
  /** In the pool's words: CONFIRMED, UNCONFIRMED, FORCE_CHANGE_PASSWORD, ... */
  status: string;
  createdAt: Date | null;
  /** Null when the pool does not say (Cognito's group listing never does). */
  lastSignInAt: Date | null;
  /** Whether the member signs in with a TOTP code; null when the pool does not say (Cognito's group listing). */
  mfa: boolean | null;
}

/** A confirmed account on ADMIN_EMAILS that is not in the group: it asks to be an admin. */
export interface AdminRequest {
  username: string;
  email: string | null;
  /** When it asked (its confirmation); Cognito does not keep it: the account's creation instead. */
  requestedAt: Date | null;
}

export interface PendingInvitation {
  id: string;
  email: string;
  invitedBy: string;
  expiresAt: Date;
  createdAt: Date;
}

export type GroupRemoval = { outcome: 'removed' } | { outcome: 'not-a-member' } | { outcome: 'last-member' };
export type RequestDecision = 'approved' | 'refused' | 'not-a-request';

/** Invitations: the admin's side (create, list, revoke) and the holder's (look up, accept). */
export interface AdminInvitations {
  pending(): Promise<PendingInvitation[]>;
  create(input: { email: string; invitedBy: string }): Promise<InviteOutcome>;
  /** True when it was pending (and now is not). */
  revoke(id: string): Promise<boolean>;
  /** Null for a token that cannot be used (unknown, expired, used, revoked): all alike. */
  lookup(token: unknown): Promise<{ email: string; invitedBy: string; expiresAt: Date } | null>;
  accept(token: unknown, account: { username: string; password: string }): Promise<AcceptOutcome>;
}

export interface AdminDirectory {
  service: 'embedded' | 'cognito';
  allowlist: EmailAllowlist;
  members(): Promise<AdminMember[]>;
  /**
   * Takes the member out of the admin group and signs them out everywhere the pool allows, unless they
   * are its last member who can sign in (then nothing changes).
   */
  removeFromGroup(username: string): Promise<GroupRemoval>;
  requests(): Promise<AdminRequest[]>;
  /** Into the admin group, the request closed: once ('not-a-request' for a second decision). */
  approve(username: string): Promise<RequestDecision>;
  /** Disabled and signed out everywhere: the address stays taken, so it cannot ask again without an admin. */
  refuse(username: string): Promise<RequestDecision>;
  /** Null where the portal cannot invite; `invitationsUnavailable` says why and what to do instead. */
  invitations: AdminInvitations | null;
  invitationsUnavailable?: string;
  /**
   * The recovery for a lost authenticator: the member's TOTP is reset and they are signed out
   * everywhere; they set it up again at their next sign-in. False when no such user exists.
   */
  resetMfa(username: string): Promise<boolean>;
}

/** A member who can sign in: the one the group must keep. */
export const canSignIn = (member: Pick<AdminMember, 'enabled' | 'status'>) =>
  member.enabled && (member.status === 'CONFIRMED' || member.status === 'EXTERNAL_PROVIDER');

/**
 * The embedded service's admin group: the same operations as `npm run admin:*` (scripts/admins.ts),
 * and its invitations (api/identity/admission.ts, made with the service's mail path by identity.ts).
 */
export function embeddedAdminDirectory(identity: EmbeddedIdentity, allowlist: EmailAllowlist, invitations: AdminInvitations | null = null): AdminDirectory {
  return {
    service: 'embedded',
    allowlist,
    async members() {
      return (await identity.admins.members()).map((user) => ({
        username: user.username,
        sub: user.id,
        email: user.email,
        emailVerified: user.emailVerified,
        enabled: user.enabled,
        status: user.status,
        createdAt: user.createdAt,
        lastSignInAt: user.lastSignInAt,
        mfa: user.mfa,
      }));
    },
    async removeFromGroup(username) {
      const { outcome } = await identity.admins.removeFromGroup(username);
      return { outcome };
    },
    async requests() {
      return (await identity.admins.requests()).map((user) => ({ username: user.username, email: user.email, requestedAt: user.adminRequestedAt }));
    },
    approve: (username) => identity.admins.approve(username),
    refuse: (username) => identity.admins.refuse(username),
    invitations,
    ...(invitations ? {} : { invitationsUnavailable: 'Invitations need the e-mail path of the server; use npm run admin:invite on the server.' }),
    async resetMfa(username) {
      try {
        await identity.admins.resetMfa(username);
        return true;
      } catch (err) {
        if ((err as { type?: string }).type === 'UserNotFoundException') return false;
        throw err;
      }
    },
  };
}
