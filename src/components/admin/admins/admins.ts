/**
 * The Admins screen's words (docs/decisions/030 and 041): what a member's row says, what removing
 * them, deciding a request or inviting will do, and what happened. Pure, so the unit tests read them
 * as an admin would.
 */
import { queryOptions } from '@tanstack/react-query';
import { type ApiData, ApiError, api, read } from '../../../lib/api-client.ts';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';

export const adminsQuery = queryOptions({ queryKey: ['/api/admin/admins'], queryFn: () => read(api.admin.admins.$get()) });
export const requestsQuery = queryOptions({ queryKey: ['/api/admin/admin-requests'], queryFn: () => read(api.admin['admin-requests'].$get()) });
export const invitationsQuery = queryOptions({ queryKey: ['/api/admin/admin-invitations'], queryFn: () => read(api.admin['admin-invitations'].$get()) });

export type AdminsList = ApiData<typeof api.admin.admins.$get>;
export type AdminRow = AdminsList['admins'][number];
export type PoolService = AdminsList['service'];
export type AdminRequestRow = ApiData<(typeof api.admin)['admin-requests']['$get']>['requests'][number];
export type InvitationsList = ApiData<(typeof api.admin)['admin-invitations']['$get']>;
export type InvitationRow = InvitationsList['invitations'][number];
export type Invited = ApiData<(typeof api.admin)['admin-invitations']['$post']>;
export type Decision = 'approve' | 'refuse';

/** What the operator can do from the server's shell, whatever the portal can or cannot. */
export const commands = {
  create: 'npm run admin:create -- --username <name> --email <address> --password <password>',
  add: (username = '<name>') => `npm run admin:add -- --username ${username}`,
  list: 'npm run admin:list',
  remove: 'npm run admin:remove -- --username <name>',
  invite: 'npm run admin:invite -- --email <address>',
};

/** Badges beside a member's name: words, never colour alone. */
export function memberBadges(row: Pick<AdminRow, 'isYou' | 'enabled' | 'status'>): string[] {
  const badges: string[] = [];
  if (row.isYou) badges.push('You');
  if (!row.enabled) badges.push('Disabled');
  if (row.status !== 'CONFIRMED') badges.push(statusLabel(row.status));
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

const who = (row: { username: string; email: string | null }) => (row.email ? `${row.username} (${row.email})` : row.username);

/** The confirmation's words: who, and what happens to them. */
export function removalConsequences(row: Pick<AdminRow, 'username' | 'email' | 'onAllowlist'>, service: PoolService): string {
  const signedOut =
    service === 'embedded'
      ? `${who(row)} will be signed out at once, on every device, and can no longer use the admin portal.`
      : `${who(row)} will be signed out on every device; the admin portal refuses them within a minute.`;
  const back = `Their account stays: ${commands.add(row.username)} on the server makes them an admin again (or npm run admin:create makes a new account).`;
  const asks = row.onAllowlist
    ? ' Their address is on ADMIN_EMAILS: if they sign in again, they are listed under Requests, for an admin to approve or refuse.'
    : '';
  return `${signedOut} ${back}${asks}`;
}

/** The success toast's description. */
export function removedMessage(result: { username: string; mayAskAgain: boolean }): string {
  return result.mayAskAgain
    ? `${result.username} is no longer an admin and has been signed out. Their address is on ADMIN_EMAILS, so signing in again asks to be an admin again.`
    : `${result.username} is no longer an admin and has been signed out.`;
}

/** Approve or refuse, said before it is done. */
export function decisionConsequences(row: AdminRequestRow, decision: Decision, service: PoolService | undefined): string {
  if (decision === 'approve') {
    const when = service === 'cognito' ? 'from their next sign-in (within the hour)' : 'at once';
    return `${who(row)} will be an admin ${when}: they can see and change everything in the admin portal, clients' messages included. Approve only someone you know to be at the firm.`;
  }
  return `${who(row)} will be signed out and their account disabled. The address stays taken, so they cannot sign up or ask again unless an admin lets them in (${commands.add(row.username)} on the server).`;
}

/** The toast after a decision. */
export function decidedMessage(result: { username: string; outcome: string }): string {
  return result.outcome === 'approved' ? `${result.username} is now an admin.` : `${result.username} was refused: their account is disabled and signed out.`;
}

/** When an invitation stops working, in firm time. */
export const expiryLabel = (expiresAt: string) => `Expires ${formatFirmDateTime(expiresAt)}`;

/** What happened to the invitation just made: e-mailed, or held with the link to pass on (shown once). */
export function invitedMessage(result: Pick<Invited, 'email' | 'delivered' | 'expiresAt' | 'superseded'>): string {
  const until = `The link works once, until ${formatFirmDateTime(result.expiresAt)}.`;
  const replaced = result.superseded ? ' The earlier invitation to this address no longer works.' : '';
  return result.delivered === 'sent'
    ? `An invitation was e-mailed to ${result.email}. ${until}${replaced}`
    : `No e-mail is configured, so the invitation was not sent. Copy the link below and send it to ${result.email} yourself: it is shown only now. ${until}${replaced}`;
}

/** Revoking, said before it is done. */
export function revokeConsequences(row: Pick<InvitationRow, 'email' | 'invitedBy'>): string {
  return `The link sent to ${row.email} (invited by ${row.invitedBy}) will stop working at once. You can invite them again later.`;
}

/** The server's reason when it gave one (a 404, 409 or 503 says what to do), else the SPEC §8 failure. */
export function refusalMessage(error: Error, fallback: string): string {
  return (error instanceof ApiError && error.details.error) || fallback;
}
