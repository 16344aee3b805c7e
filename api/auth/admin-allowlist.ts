/**
 * ADMIN_EMAILS: comma-separated addresses ("ana@firm.com") or whole domains ("@firm.com"). Only such
 * addresses may sign up (the pre-sign-up check), and a confirmed one asks to be an admin: an admin
 * approves or refuses it (docs/decisions/041). A match never makes an admin by itself; the pool's
 * `admin` group does.
 * An address must be one plain mailbox: exactly one '@', no spaces, quotes or angle brackets, so
 * `attacker@evil.test@firm.com` or `"x@firm.com"@evil.test` never match a listed domain.
 */
export interface EmailAllowlist {
  readonly entries: readonly string[];
  allows(email: string | null | undefined): boolean;
}

const plainAddress = /^[^\s@"'<>(),;:\\[\]]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

export function parseAllowlist(value: string): EmailAllowlist {
  const entries = value
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  return {
    entries,
    allows(email) {
      if (!email) return false;
      const address = email.trim().toLowerCase();
      if (!plainAddress.test(address)) return false;
      const domain = address.slice(address.indexOf('@'));
      return entries.some((entry) => (entry.startsWith('@') ? domain === entry : address === entry));
    },
  };
}
