/**
 * A real Cognito user pool's admin group (docs/decisions/030 and 041), through the AWS SDK with the
 * server's own AWS credentials (the SDK's chain: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile,
 * or the role the platform gives): ListUsersInGroup, AdminRemoveUserFromGroup, AdminUserGlobalSignOut;
 * for requests (confirmed users on ADMIN_EMAILS outside the group) ListUsers, AdminAddUserToGroup and
 * AdminDisableUser. The SDK is loaded on first use (decision 021). Cognito has no transactions: two
 * admins removing each other at the same moment could both pass the last-member check; `npm run
 * admin:create` recovers.
 *
 * Invitations are not made here: Cognito's own (AdminCreateUser mails a temporary password) end in a
 * NEW_PASSWORD_REQUIRED challenge the site's /login does not offer, so the console does it.
 *
 * AWS's refusals become answers an admin can act on: no credentials, or credentials without the
 * permission, are a 503 naming the permission and the command-line alternative.
 */
import type { CognitoIdentityProviderClient, UserType } from '@aws-sdk/client-cognito-identity-provider';
import type { EmailAllowlist } from '../auth/admin-allowlist.ts';
import { HttpError } from '../http/errors.ts';
import { type AdminDirectory, type AdminMember, type AdminRequest, canSignIn } from './admin-directory.ts';

export const ADMIN_GROUP = 'admin';
/** A page of ListUsersInGroup is at most 60 users; no firm has 50 pages of admins. */
const MAX_PAGES = 50;

export interface CognitoAdminSettings {
  region: string;
  userPoolId: string;
  allowlist: EmailAllowlist;
  /** Another endpoint than AWS's (the tests' local Cognito). */
  endpoint?: string;
  /** Explicit keys; unset: the SDK's own chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

type AwsError = Error & { $metadata?: { httpStatusCode?: number } };

const REFUSED_CREDENTIALS = new Set([
  'AccessDeniedException',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'IncompleteSignatureException',
  'ExpiredTokenException',
  'MissingAuthenticationTokenException',
]);

/** What each use needs, in AWS's words, and what the operator can do instead. */
const uses = {
  list: {
    doing: 'Listing admins',
    permissions: 'cognito-idp:ListUsersInGroup',
    instead: 'npm run admin:list on the server',
  },
  resetMfa: {
    doing: 'Resetting two-step verification',
    permissions: 'cognito-idp:AdminSetUserMFAPreference and cognito-idp:AdminUserGlobalSignOut',
    instead: 'npm run admin:reset-mfa -- --username <name> on the server',
  },
  remove: {
    doing: 'Removing admins',
    permissions: 'cognito-idp:ListUsersInGroup, cognito-idp:AdminRemoveUserFromGroup and cognito-idp:AdminUserGlobalSignOut',
    instead: 'npm run admin:remove -- --username <name> on the server',
  },
  requests: {
    doing: 'Listing requests',
    permissions: 'cognito-idp:ListUsers and cognito-idp:ListUsersInGroup',
    instead: 'npm run admin:list on the server',
  },
  approve: {
    doing: 'Approving requests',
    permissions: 'cognito-idp:ListUsers, cognito-idp:ListUsersInGroup, cognito-idp:CreateGroup and cognito-idp:AdminAddUserToGroup',
    instead: 'npm run admin:add -- --username <name> on the server',
  },
  refuse: {
    doing: 'Refusing requests',
    permissions: 'cognito-idp:ListUsers, cognito-idp:ListUsersInGroup, cognito-idp:AdminDisableUser and cognito-idp:AdminUserGlobalSignOut',
    instead: 'npm run admin:remove -- --username <name> --disable on the server',
  },
} as const;

/** Why the Admins screen cannot invite with a Cognito pool, and what to do instead. */
export const COGNITO_INVITATIONS_UNAVAILABLE =
  'With a Cognito user pool, invite from the AWS Cognito console (Create user, with an invitation e-mail, then add them to the admin group), or make the account with npm run admin:create on the server.';

export function cognitoAdminDirectory(settings: CognitoAdminSettings): AdminDirectory {
  const { userPoolId, region } = settings;
  let loaded: Promise<{ sdk: typeof import('@aws-sdk/client-cognito-identity-provider'); client: CognitoIdentityProviderClient }> | null = null;
  const connect = () =>
    (loaded ??= import('@aws-sdk/client-cognito-identity-provider').then((sdk) => ({
      sdk,
      client: new sdk.CognitoIdentityProviderClient({
        region,
        ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
        ...(settings.credentials ? { credentials: settings.credentials } : {}),
        maxAttempts: 2,
        requestHandler: { requestTimeout: 10_000, connectionTimeout: 5_000 },
      }),
    })));

  /** AWS's refusal as an answer to the admin (never a credential). */
  function refusal(err: unknown, use: keyof typeof uses): HttpError {
    const e = err as AwsError;
    const { doing, permissions, instead } = uses[use];
    const alternative = `Meanwhile, use ${instead}, or the user pool in the AWS Cognito console.`;
    if (e?.name === 'CredentialsProviderError' || /could not load credentials/i.test(e?.message ?? '')) {
      return new HttpError(
        503,
        `${doing} needs AWS credentials allowed ${permissions} on the user pool ${userPoolId}, and this server has none: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give it a role. ${alternative}`,
      );
    }
    if (REFUSED_CREDENTIALS.has(e?.name)) {
      return new HttpError(
        503,
        `${doing} needs AWS credentials allowed ${permissions} on the user pool ${userPoolId}; AWS refused this server's (${e.name}). ${alternative}`,
      );
    }
    if (e?.name === 'ResourceNotFoundException') {
      return new HttpError(503, `The user pool ${userPoolId} was not found in ${region}: check COGNITO_USER_POOL_ID and COGNITO_REGION. ${alternative}`);
    }
    if (e?.$metadata?.httpStatusCode === undefined) {
      return new HttpError(502, `Cognito did not answer (${e?.name ?? 'error'}); please try again in a moment.`);
    }
    return new HttpError(502, `Cognito refused the request (${e.name}: ${(e.message ?? '').slice(0, 200)}).`);
  }

  const attribute = (user: UserType, name: string) => user.Attributes?.find((a) => a.Name === name)?.Value ?? null;
  const memberOf = (user: UserType): AdminMember => ({
    username: user.Username ?? '',
    sub: attribute(user, 'sub'),
    email: attribute(user, 'email'),
    emailVerified: attribute(user, 'email_verified') === 'true',
    enabled: user.Enabled !== false,
    status: user.UserStatus ?? 'UNKNOWN',
    createdAt: user.UserCreateDate ?? null,
    lastSignInAt: null,
    mfa: null,
  });

  /**
   * Requests: enabled, confirmed users whose verified address is on ADMIN_EMAILS and who are not in the
   * group (ListUsers, page by page, against ListUsersInGroup). Cognito keeps no time of asking: the
   * account's creation stands for it.
   */
  async function requests(use: keyof typeof uses): Promise<(AdminRequest & { sub: string | null })[]> {
    const inGroup = new Set((await members(use)).map((m) => m.username));
    const { sdk, client } = await connect();
    const found: (AdminRequest & { sub: string | null })[] = [];
    let token: string | undefined;
    try {
      for (let page = 0; page < MAX_PAGES; page++) {
        const answer = await client.send(new sdk.ListUsersCommand({ UserPoolId: userPoolId, PaginationToken: token }));
        for (const user of answer.Users ?? []) {
          const m = memberOf(user);
          if (inGroup.has(m.username) || !m.enabled || m.status !== 'CONFIRMED' || !m.emailVerified || !settings.allowlist.allows(m.email)) continue;
          found.push({ username: m.username, sub: m.sub, email: m.email, requestedAt: m.createdAt });
        }
        token = answer.PaginationToken;
        if (!token) break;
      }
    } catch (err) {
      throw refusal(err, use);
    }
    return found.sort((a, b) => (a.requestedAt?.getTime() ?? 0) - (b.requestedAt?.getTime() ?? 0) || a.username.localeCompare(b.username));
  }

  async function members(use: keyof typeof uses): Promise<AdminMember[]> {
    const { sdk, client } = await connect();
    const found: AdminMember[] = [];
    let token: string | undefined;
    try {
      for (let page = 0; page < MAX_PAGES; page++) {
        const answer = await client.send(new sdk.ListUsersInGroupCommand({ UserPoolId: userPoolId, GroupName: ADMIN_GROUP, NextToken: token }));
        found.push(...(answer.Users ?? []).map(memberOf));
        token = answer.NextToken;
        if (!token) break;
      }
    } catch (err) {
      // No group yet (npm run admin:create makes it): no members. A missing pool says "User pool".
      if ((err as Error).name === 'ResourceNotFoundException' && /group/i.test((err as Error).message)) return [];
      throw refusal(err, use);
    }
    return found.sort((a, b) => a.username.localeCompare(b.username));
  }

  return {
    service: 'cognito',
    allowlist: settings.allowlist,
    members: () => members('list'),
    async removeFromGroup(username) {
      const all = await members('remove');
      const target = all.find((m) => m.username === username);
      if (!target) return { outcome: 'not-a-member' };
      if (!all.some((m) => m !== target && canSignIn(m))) return { outcome: 'last-member' };
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.AdminRemoveUserFromGroupCommand({ UserPoolId: userPoolId, Username: target.username, GroupName: ADMIN_GROUP }));
        // Cognito then refuses the user's tokens at GetUser, which the verifier asks within a minute.
        await client.send(new sdk.AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: target.username }));
      } catch (err) {
        if ((err as Error).name === 'UserNotFoundException') return { outcome: 'not-a-member' };
        throw refusal(err, 'remove');
      }
      return { outcome: 'removed' };
    },
    requests: () => requests('requests'),
    async approve(username) {
      // Only a listed request is approved: the screen's button never adds an arbitrary user to the group.
      if (!(await requests('approve')).some((r) => r.username === username)) return 'not-a-request';
      const { sdk, client } = await connect();
      try {
        // CreateGroup fails when the group exists: it never replaces the members already in it.
        await client
          .send(new sdk.CreateGroupCommand({ UserPoolId: userPoolId, GroupName: ADMIN_GROUP, Description: 'Firm administrators' }))
          .catch((err: Error) => {
            if (err.name !== 'GroupExistsException') throw err;
          });
        await client.send(new sdk.AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: username, GroupName: ADMIN_GROUP }));
      } catch (err) {
        if ((err as Error).name === 'UserNotFoundException') return 'not-a-request';
        throw refusal(err, 'approve');
      }
      return 'approved';
    },
    async refuse(username) {
      if (!(await requests('refuse')).some((r) => r.username === username)) return 'not-a-request';
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.AdminDisableUserCommand({ UserPoolId: userPoolId, Username: username }));
        await client.send(new sdk.AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: username }));
      } catch (err) {
        if ((err as Error).name === 'UserNotFoundException') return 'not-a-request';
        throw refusal(err, 'refuse');
      }
      return 'refused';
    },
    invitations: null,
    invitationsUnavailable: COGNITO_INVITATIONS_UNAVAILABLE,
    // Cognito keeps the registered authenticator; turning TOTP off as the user's MFA and signing them
    // out is what an administrator can do (a pool with MFA required asks them to set it up again).
    async resetMfa(username) {
      const { sdk, client } = await connect();
      try {
        await client.send(
          new sdk.AdminSetUserMFAPreferenceCommand({
            UserPoolId: userPoolId,
            Username: username,
            SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
          }),
        );
        await client.send(new sdk.AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: username }));
      } catch (err) {
        if ((err as Error).name === 'UserNotFoundException') return false;
        throw refusal(err, 'resetMfa');
      }
      return true;
    },
  };
}
