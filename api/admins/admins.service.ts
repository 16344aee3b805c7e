/**
 * The Admins screen's rules (docs/decisions/030): who administers the site, and taking one of them out
 * of the admin group. Nobody removes themselves (another admin, or the operator's command, does), and
 * the group never loses its last member who can sign in; both are 409s that say what to do instead.
 * An admin who lost their authenticator has it reset by another admin (or `npm run admin:reset-mfa`),
 * never by themselves: a stolen session must not be able to swap the second factor.
 */
import type { AdminPrincipal } from '../auth/verifier.ts';
import type { Deps } from '../deps.ts';
import { conflict, HttpError, notFound } from '../http/errors.ts';
import type { AdminDirectory, AdminMember } from './admin-directory.ts';

const isCaller = (member: AdminMember, caller: AdminPrincipal) =>
  member.sub ? member.sub === caller.sub : member.username.toLowerCase() === caller.username.toLowerCase();

export function adminsService({ adminDirectory }: Pick<Deps, 'adminDirectory'>) {
  const directory = (): AdminDirectory => {
    if (!adminDirectory) throw new HttpError(503, 'This server has no user pool the admin portal can manage.');
    return adminDirectory;
  };
  /** A verified address on ADMIN_EMAILS keeps a member an admin out of the group. */
  const byEmail = (d: AdminDirectory, member: AdminMember) => member.emailVerified && d.allowlist.allows(member.email);

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
          alsoByEmail: byEmail(d, m),
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
      return { username: target.username, stillAdminByEmail: byEmail(d, target) };
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
