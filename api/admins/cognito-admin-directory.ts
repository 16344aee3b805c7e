/**
 * A real Cognito user pool's admin group (docs/decisions/030), through the AWS SDK with the server's own
 * AWS credentials (the SDK's chain: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, or the role
 * the platform gives): ListUsersInGroup, AdminRemoveUserFromGroup, AdminUserGlobalSignOut. The SDK is
 * loaded on first use (decision 021). Cognito has no transactions: two admins removing each other at
 * the same moment could both pass the last-member check; `npm run admin:create` recovers.
 *
 * AWS's refusals become answers an admin can act on: no credentials, or credentials without the
 * permission, are a 503 naming the permission and the command-line alternative.
 */
import type { CognitoIdentityProviderClient, UserType } from '@aws-sdk/client-cognito-identity-provider';
import type { EmailAllowlist } from '../auth/admin-allowlist.ts';
import { HttpError } from '../http/errors.ts';
import { type AdminDirectory, type AdminMember, canSignIn } from './admin-directory.ts';

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
} as const;

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
