/**
 * ADMIN_EMAILS: comma-separated addresses ("ana@firm.com") or whole domains ("@firm.com"). A user
 * whose verified e-mail matches is an admin (besides members of the pool's `admin` group), and only
 * such addresses may sign up (the pre-sign-up check), so strangers cannot create admin accounts.
 */
export interface EmailAllowlist {
  readonly entries: readonly string[];
  allows(email: string | null | undefined): boolean;
}

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
      const at = address.lastIndexOf('@');
      if (at < 1) return false;
      const domain = address.slice(at);
      return entries.some((entry) => (entry.startsWith('@') ? domain === entry : address === entry));
    },
  };
}
