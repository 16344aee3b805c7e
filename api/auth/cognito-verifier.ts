/**
 * Verifies Cognito access tokens on the server itself (ARCHITECTURE: signature via the pool's JWKS,
 * issuer, client id, token use, expiry), for a real user pool or the embedded identity service alike.
 * An admin is a member of the pool's `admin` group, or a user whose verified e-mail ADMIN_EMAILS lists.
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { EmailAllowlist } from './admin-allowlist.ts';
import type { AccessTokenVerifier, AdminPrincipal } from './verifier.ts';

export interface UserEmail {
  email: string | null;
  emailVerified: boolean;
}

export interface CognitoVerifierOptions {
  /** `https://cognito-idp.<region>.amazonaws.com/<poolId>`, or the embedded service's issuer. */
  issuer: string;
  jwksUrl: string;
  clientId: string;
  allowlist: EmailAllowlist;
  /** Looks up the caller's e-mail (Cognito GetUser with the access token itself). */
  userEmail(accessToken: string): Promise<UserEmail>;
  /** How long a looked-up e-mail is trusted for a user; default 5 minutes. */
  emailCacheMs?: number;
  now?: () => number;
}

export function createCognitoVerifier(options: CognitoVerifierOptions): AccessTokenVerifier {
  // jose caches the key set and refetches on an unknown `kid` (key rotation), at most every 30 s.
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl), { cacheMaxAge: 10 * 60_000, cooldownDuration: 30_000 });
  const emailCache = new Map<string, { at: number; value: UserEmail }>();
  const cacheMs = options.emailCacheMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;

  async function emailOf(sub: string, token: string): Promise<UserEmail> {
    const hit = emailCache.get(sub);
    if (hit && now() - hit.at < cacheMs) return hit.value;
    const value = await options.userEmail(token);
    emailCache.set(sub, { at: now(), value });
    return value;
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
      const groups = Array.isArray(payload['cognito:groups']) ? (payload['cognito:groups'] as unknown[]).map(String) : [];
      const username = String(payload.username ?? payload['cognito:username'] ?? payload.sub);
      let email: string | null = null;
      let isAdmin = groups.includes('admin');
      if (!isAdmin && options.allowlist.entries.length > 0) {
        const found = await emailOf(payload.sub, token).catch(() => ({ email: null, emailVerified: false }));
        email = found.email;
        isAdmin = found.emailVerified && options.allowlist.allows(found.email);
      }
      const principal: AdminPrincipal = { sub: payload.sub, username, email, groups, isAdmin };
      return principal;
    },
  };
}

/** Cognito GetUser over its JSON protocol: authorised by the access token, no AWS credentials needed. */
export function cognitoGetUserEmail(endpoint: string) {
  return async (accessToken: string): Promise<UserEmail> => {
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
