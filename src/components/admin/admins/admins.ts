/**
 * The Admins screen's words (docs/decisions/030): what a member's row says, what removing them will
 * do, and what happened. Pure, so the unit tests read them as an admin would.
 */
import { queryOptions } from '@tanstack/react-query';
import { type ApiData, ApiError, api, read } from '../../../lib/api-client.ts';

export const adminsQuery = queryOptions({ queryKey: ['/api/admin/admins'], queryFn: () => read(api.admin.admins.$get()) });

export type AdminsList = ApiData<typeof api.admin.admins.$get>;
export type AdminRow = AdminsList['admins'][number];
export type PoolService = AdminsList['service'];

/** What the operator can do from the server's shell, whatever the portal can or cannot. */
export const commands = {
  create: 'npm run admin:create -- --username <name> --email <address> --password <password>',
  add: (username = '<name>') => `npm run admin:add -- --username ${username}`,
  list: 'npm run admin:list',
  remove: 'npm run admin:remove -- --username <name>',
};

/** Badges beside a member's name: words, never colour alone. */
export function memberBadges(row: Pick<AdminRow, 'isYou' | 'enabled' | 'status' | 'alsoByEmail'>): string[] {
  const badges: string[] = [];
  if (row.isYou) badges.push('You');
  if (!row.enabled) badges.push('Disabled');
  if (row.status !== 'CONFIRMED') badges.push(statusLabel(row.status));
  if (row.alsoByEmail) badges.push('Also on ADMIN_EMAILS');
  return badges;
}

const statusLabels: Record<string, string> = {
  UNCONFIRMED: 'Not confirmed',
  FORCE_CHANGE_PASSWORD: 'Must change password',
  RESET_REQUIRED: 'Password reset required',
  EXTERNAL_PROVIDER: 'Signs in elsewhere',
  COMPROMISED: 'Compromised',
  ARCHIVED: 'Archived',
};
export const statusLabel = (status: string) => statusLabels[status] ?? status;

/** An ADMIN_EMAILS entry in words: an address, or a whole domain. */
export function allowlistEntryLabel(entry: string): string {
  return entry.startsWith('@') ? `Anyone with a verified address at ${entry.slice(1)}` : entry;
}

/** The confirmation's words: who, and what happens to them. */
export function removalConsequences(row: Pick<AdminRow, 'username' | 'email' | 'alsoByEmail'>, service: PoolService): string {
  const who = row.email ? `${row.username} (${row.email})` : row.username;
  const signedOut =
    service === 'embedded'
      ? `${who} will be signed out at once, on every device, and can no longer use the admin portal.`
      : `${who} will be signed out on every device; the admin portal refuses them within a minute.`;
  const back = `Their account stays: ${commands.add(row.username)} on the server makes them an admin again (or npm run admin:create makes a new account).`;
  const stays = row.alsoByEmail ? ' Their address is on ADMIN_EMAILS, so they can still sign in as an admin until it is taken off.' : '';
  return `${signedOut} ${back}${stays}`;
}

/** The success toast's description. */
export function removedMessage(result: { username: string; stillAdminByEmail: boolean }): string {
  return result.stillAdminByEmail
    ? `${result.username} is out of the admin group and signed out, but their address is on ADMIN_EMAILS, so they are still an admin.`
    : `${result.username} is no longer an admin and has been signed out.`;
}

/** The server's reason when it gave one (a 404, 409 or 503 says what to do), else the SPEC §8 failure. */
export function refusalMessage(error: Error, fallback: string): string {
  return (error instanceof ApiError && error.details.error) || fallback;
}
