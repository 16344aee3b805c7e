/**
 * The server's password policy, at least what the sign-up form asks (8 characters, SPEC §8), plus what
 * NIST SP 800-63B asks of a verifier: no cap below 256, no composition rules, and no password found in
 * lists of commonly used or breached passwords (zxcvbn-ts's common list, ~49,000 entries), nor one
 * made of the username or e-mail.
 */

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

/** The list is loaded when a password is first judged (400 KB of source: not at every start). */
let common: Promise<Set<string>> | null = null;
const commonPasswords = () =>
  (common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set((dictionary as Record<string, string[]>)['passwords-common']!.map((p) => p.toLowerCase())),
  ));

/** Null when acceptable, else the reason (Cognito's InvalidPasswordException message). */
export async function passwordProblem(password: unknown, context: { username?: string; email?: string } = {}): Promise<string | null> {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH)
    return `Password did not conform with policy: Password not long enough (at least ${MIN_PASSWORD_LENGTH} characters)`;
  if (password.length > MAX_PASSWORD_LENGTH) return `Password did not conform with policy: Password is longer than ${MAX_PASSWORD_LENGTH} characters`;
  if (password.trim() !== password) return 'Password did not conform with policy: Password must not begin or end with a space';
  const lower = password.toLowerCase();
  if ((await commonPasswords()).has(lower))
    return 'Password did not conform with policy: Password is too common; choose one that is not on lists of common passwords';
  const names = [context.username, context.email, context.email?.split('@')[0]]
    .filter((n): n is string => Boolean(n && n.length >= 3))
    .map((n) => n.toLowerCase());
  if (names.some((name) => lower.includes(name))) return 'Password did not conform with policy: Password must not contain the username or e-mail address';
  return null;
}
