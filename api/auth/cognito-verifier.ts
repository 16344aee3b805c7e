/**
 * Verifies access tokens of a real Cognito user pool on the server itself (ARCHITECTURE: signature via
 * the pool's JWKS, issuer, client id, token use, expiry), then asks the pool whether the token is
 * still live (GetUser, authorised by the token itself): after a sign-out (RevokeToken,
 * GlobalSignOut, AdminUserGlobalSignOut) Cognito refuses the token, and so does the API within
 * LIVENESS_MS. The embedded identity service checks its own sessions instead (embedded-identity.ts).
 * An admin is a member of the pool's `admin` group: the group alone decides (docs/decisions/041). A
 * user with a verified e-mail on ADMIN_EMAILS who is not in it has asked to be one and waits for an
 * admin's approval (the Admins screen lists them; approving adds them to the group). The group is read
 * from the token, so an approval reaches a user at their next token (a refresh, at most an hour).
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { EmailAllowlist } from './admin-allowlist.ts';
import type { AccessTokenVerifier, AdminPrincipal } from './verifier.ts';

/** How long a token found live is believed before the pool is asked again. */
export const LIVENESS_MS = 60_000;

export interface PoolUser {
  email: string | null;
  emailVerified: boolean;
}

export interface CognitoVerifierOptions {
  /** `https://cognito-idp.<region>.amazonaws.com/<poolId>` */
  issuer: string;
  jwksUrl: string;
  clientId: string;
  allowlist: EmailAllowlist;
  /** Cognito GetUser with the access token itself; rejects when the pool refuses the token. */
  getUser(accessToken: string): Promise<PoolUser>;
  livenessMs?: number;
  now?: () => number;
}

export function createCognitoVerifier(options: CognitoVerifierOptions): AccessTokenVerifier {
  // jose caches the key set and refetches on an unknown `kid` (key rotation), at most every 30 s.
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl), { cacheMaxAge: 10 * 60_000, cooldownDuration: 30_000 });
  const live = new Map<string, { at: number; user: PoolUser }>();
  const livenessMs = options.livenessMs ?? LIVENESS_MS;
  const now = options.now ?? Date.now;

  async function liveUser(jti: string, token: string): Promise<PoolUser | null> {
    const hit = live.get(jti);
    if (hit && now() - hit.at < livenessMs) return hit.user;
    const user = await options.getUser(token).catch(() => null);
    if (!user) {
      live.delete(jti);
      return null;
    }
    if (live.size > 10_000) live.clear(); // bounded: tokens live an hour, admins are few
    live.set(jti, { at: now(), user });
    return user;
  }

  return {
    async verify(token) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, jwks, {
          issuer: options.issuer,
          algorithms: ['RS256'],
          clockTolerance: 5, // SPEC §9: token-expiry tolerance 5 seconds
          currentDate: new Date(now()),
        }));
      } catch {
        return null;
      }
      if (payload.token_use !== 'access' || payload.client_id !== options.clientId || typeof payload.sub !== 'string') return null;
      const user = await liveUser(typeof payload.jti === 'string' ? payload.jti : token, token);
      if (!user) return null;
      const groups = Array.isArray(payload['cognito:groups']) ? (payload['cognito:groups'] as unknown[]).map(String) : [];
      const username = String(payload.username ?? payload['cognito:username'] ?? payload.sub);
      const isAdmin = groups.includes('admin');
      const approvalPending = !isAdmin && user.emailVerified && options.allowlist.allows(user.email);
      const principal: AdminPrincipal = { sub: payload.sub, username, email: user.email, groups, isAdmin, approvalPending };
      return principal;
    },
  };
}

/** Cognito GetUser over its JSON protocol: authorised by the access token, no AWS credentials needed. */
export function cognitoGetUser(endpoint: string) {
  return async (accessToken: string): Promise<PoolUser> => {
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.GetUser' },
      body: JSON.stringify({ AccessToken: accessToken }),
      signal: AbortSignal.timeout(5_000),
    });
    if (!res.ok) throw new Error(`GetUser answered ${res.status}`);
    const body = (await res.json()) as { UserAttributes?: { Name: string; Value: string }[] };
    const attr = (name: string) => body.UserAttributes?.find((a) => a.Name === name)?.Value ?? null;
    return { email: attr('email'), emailVerified: attr('email_verified') === 'true' };
  };
}
