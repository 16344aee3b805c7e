/** Who is calling the admin API, as established from a verified access token. */
export interface AdminPrincipal {
  sub: string;
  username: string;
  email: string | null;
  groups: string[];
  /** A member of the pool's `admin` group: the group alone decides (docs/decisions/041). */
  isAdmin: boolean;
  /**
   * Not an admin, but asked to be one (a confirmed sign-up on ADMIN_EMAILS) and not yet approved or
   * refused: the guard tells them so, apart from a plain refusal.
   */
  approvalPending?: boolean;
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
