/**
 * The Admins screen's rules (docs/decisions/030 and 041): who administers the site, taking one of them
 * out of the admin group, deciding requests and inviting. Nobody removes themselves (another admin, or
 * the operator's command, does), and the group never loses its last member who can sign in; both are
 * 409s that say what to do instead. Every change is written to the server log with who made it.
 *
 * The holder of an invitation (no account yet) looks it up and accepts it here too; every link that
 * cannot be used (unknown, expired, used, revoked) gets one answer, so the answer tells nothing.
 * An admin who lost their authenticator has it reset by another admin (or `npm run admin:reset-mfa`),
 * never by themselves: a stolen session must not be able to swap the second factor.
 */
import type { AdminPrincipal } from '../auth/verifier.ts';
import type { Deps } from '../deps.ts';
import { badRequest, conflict, HttpError, notFound } from '../http/errors.ts';
import type { AdminDirectory, AdminMember } from './admin-directory.ts';

const isCaller = (member: AdminMember, caller: AdminPrincipal) =>
  member.sub ? member.sub === caller.sub : member.username.toLowerCase() === caller.username.toLowerCase();

/** The one answer to a link that cannot be used, whatever the reason. */
export const INVITATION_UNUSABLE =
  'This invitation link cannot be used: it has expired, it was already used, or it was withdrawn. Ask an admin of the firm to invite you again.';

export function adminsService({ adminDirectory, log }: Pick<Deps, 'adminDirectory' | 'log'>) {
  const directory = (): AdminDirectory => {
    if (!adminDirectory) throw new HttpError(503, 'This server has no user pool the admin portal can manage.');
    return adminDirectory;
  };
  /** A verified address on ADMIN_EMAILS: taken out of the group, the member may sign in and ask again. */
  const onAllowlist = (d: AdminDirectory, member: AdminMember) => member.emailVerified && d.allowlist.allows(member.email);
  const invitations = () => {
    const d = directory();
    if (!d.invitations) throw new HttpError(501, d.invitationsUnavailable ?? 'This user pool cannot invite from the admin portal.');
    return d.invitations;
  };
  /** The holder's side answers as for an unknown link where the pool has no invitations. */
  const holderInvitations = () => adminDirectory?.invitations ?? null;

  return {
    async list(caller: AdminPrincipal) {
      const d = directory();
      const members = await d.members();
      return {
        service: d.service,
        admins: members.map((m) => ({
          username: m.username,
          email: m.email,
          emailVerified: m.emailVerified,
          enabled: m.enabled,
          status: m.status,
          createdAt: m.createdAt,
          lastSignInAt: m.lastSignInAt,
          mfa: m.mfa,
          isYou: isCaller(m, caller),
          onAllowlist: onAllowlist(d, m),
        })),
        /** From configuration: shown, never removable here. */
        allowlist: [...d.allowlist.entries],
      };
    },

    async remove(username: string, caller: AdminPrincipal) {
      const d = directory();
      const target = (await d.members()).find((m) => m.username === username);
      if (!target) throw notFound(`No admin is named "${username}".`);
      if (isCaller(target, caller)) {
        throw conflict('You cannot remove yourself: ask another admin to remove you, or use npm run admin:remove on the server.');
      }
      const { outcome } = await d.removeFromGroup(target.username);
      if (outcome === 'not-a-member') throw notFound(`No admin is named "${username}".`);
      if (outcome === 'last-member') {
        throw conflict(`${target.username} is the last admin who can sign in, so they stay: add another admin first (npm run admin:create).`);
      }
      log.info('admins: removed from the admin group', { username: target.username, by: caller.username });
      return { username: target.username, mayAskAgain: onAllowlist(d, target) };
    },

    async requests() {
      const requests = await directory().requests();
      return { requests: requests.map((r) => ({ username: r.username, email: r.email, requestedAt: r.requestedAt })) };
    },

    async decide(username: string, decision: 'approve' | 'refuse', caller: AdminPrincipal) {
      const d = directory();
      const outcome = decision === 'approve' ? await d.approve(username) : await d.refuse(username);
      if (outcome === 'not-a-request') throw notFound(`No one named "${username}" is waiting for approval.`);
      log.info(outcome === 'approved' ? 'admins: request approved' : 'admins: request refused, account disabled', { username, by: caller.username });
      return { username, outcome };
    },

    async invitations() {
      const d = directory();
      if (!d.invitations) return { canInvite: false, unavailable: d.invitationsUnavailable ?? null, invitations: [] };
      const pending = await d.invitations.pending();
      return {
        canInvite: true,
        unavailable: null,
        invitations: pending.map((i) => ({ id: i.id, email: i.email, invitedBy: i.invitedBy, expiresAt: i.expiresAt, createdAt: i.createdAt })),
      };
    },

    async invite(email: string, caller: AdminPrincipal) {
      const result = await invitations().create({ email, invitedBy: caller.username });
      if (result.outcome !== 'invited') {
        if (result.outcome === 'too-many') throw conflict('There are too many pending invitations: revoke some first.');
        throw conflict(
          `${email} already has an account: it cannot be invited. If it should be an admin, approve its request, or ask the operator (npm run admin:add).`,
          {
            email: 'This address already has an account.',
          },
        );
      }
      const { invitation, delivered, link, superseded } = result;
      log.info('admins: invitation sent', { invitationId: invitation.id, email: invitation.email, by: caller.username, delivered, superseded });
      return {
        id: invitation.id,
        email: invitation.email,
        invitedBy: invitation.invitedBy,
        expiresAt: invitation.expiresAt,
        createdAt: invitation.createdAt,
        delivered,
        superseded,
        // With no e-mail configured, the admin passes the link on: shown this once, never stored.
        link: delivered === 'held' ? link : null,
      };
    },

    async revokeInvitation(id: string, caller: AdminPrincipal) {
      if (!(await invitations().revoke(id))) throw notFound('No pending invitation has this id: it may have been used, revoked or have expired.');
      log.info('admins: invitation revoked', { invitationId: id, by: caller.username });
      return { id };
    },

    /** The page behind the link: whom it invites, who invited, until when. */
    async lookupInvitation(token: string | undefined) {
      const found = await holderInvitations()?.lookup(token);
      if (!found) throw notFound(INVITATION_UNUSABLE);
      return found;
    },

    async acceptInvitation(token: string | undefined, account: { username: string; password: string }) {
      const d = holderInvitations();
      const result = d ? await d.accept(token, account) : ({ outcome: 'invalid' } as const);
      switch (result.outcome) {
        case 'accepted':
          log.info('admins: invitation accepted', { username: result.username });
          return { username: result.username };
        case 'invalid':
          throw notFound(INVITATION_UNUSABLE);
        case 'username-taken':
          throw conflict('An account with this username already exists.', { username: 'An account with this username already exists.' });
        case 'address-taken':
          throw conflict('This address already has an account: sign in with it, or ask an admin of the firm.');
        case 'password':
          throw badRequest(result.message, { password: result.message });
      }
    },

    /** Another admin's TOTP reset: they are signed out and set it up again at their next sign-in. */
    async resetMfa(username: string, caller: AdminPrincipal) {
      const d = directory();
      const target = (await d.members()).find((m) => m.username === username);
      if (!target) throw notFound(`No admin is named "${username}".`);
      if (isCaller(target, caller)) {
        throw conflict('You cannot reset your own two-step verification: ask another admin, or use npm run admin:reset-mfa on the server.');
      }
      if (!(await d.resetMfa(target.username))) throw notFound(`No admin is named "${username}".`);
      return { username: target.username };
    },
  };
}
