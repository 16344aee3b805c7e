/**
 * Who administers the site, as the user pool keeps it (docs/decisions/030): the members of its `admin`
 * group, read and changed through one interface whichever pool runs: the embedded identity service
 * (below) or a real Cognito pool (cognito-admin-directory.ts). Members of ADMIN_EMAILS are admins by
 * configuration, not by membership: the directory names the allowlist, it cannot change it.
 */
import type { EmailAllowlist } from '../auth/admin-allowlist.ts';
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

export type GroupRemoval = { outcome: 'removed' } | { outcome: 'not-a-member' } | { outcome: 'last-member' };

export interface AdminDirectory {
  service: 'embedded' | 'cognito';
  allowlist: EmailAllowlist;
  members(): Promise<AdminMember[]>;
  /**
   * Takes the member out of the admin group and signs them out everywhere the pool allows, unless they
   * are its last member who can sign in (then nothing changes).
   */
  removeFromGroup(username: string): Promise<GroupRemoval>;
  /**
   * The recovery for a lost authenticator: the member's TOTP is reset and they are signed out
   * everywhere; they set it up again at their next sign-in. False when no such user exists.
   */
  resetMfa(username: string): Promise<boolean>;
}

/** A member who can sign in: the one the group must keep. */
export const canSignIn = (member: Pick<AdminMember, 'enabled' | 'status'>) =>
  member.enabled && (member.status === 'CONFIRMED' || member.status === 'EXTERNAL_PROVIDER');

/** The embedded service's admin group: the same operations as `npm run admin:*` (scripts/admins.ts). */
export function embeddedAdminDirectory(identity: EmbeddedIdentity, allowlist: EmailAllowlist): AdminDirectory {
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
