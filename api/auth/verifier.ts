/** Who is calling the admin API, as established from a verified access token. */
export interface AdminPrincipal {
  sub: string;
  username: string;
  email: string | null;
  groups: string[];
  isAdmin: boolean;
}

/**
 * Verifies a bearer access token. Returns null for anything that is not a valid token of the
 * configured user pool and app client (bad signature, wrong issuer or client, expired, not an access
 * token). Implementations: the Cognito verifier (production and the embedded identity service).
 */
export interface AccessTokenVerifier {
  verify(token: string): Promise<AdminPrincipal | null>;
}

/** Used when no identity service is configured: the admin API stays locked (deny by default). */
export const lockedVerifier: AccessTokenVerifier = {
  async verify() {
    return null;
  },
};
