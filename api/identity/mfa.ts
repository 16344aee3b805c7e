/**
 * TOTP as Cognito's SOFTWARE_TOKEN_MFA uses it (docs/decisions/040): RFC 6238, SHA-1, 6 digits, 30 s
 * steps, a 160-bit secret shown in base32 (what authenticator apps take), a code accepted one step
 * either side of now (clocks drift), and each step accepted once: the caller stores the step a code
 * was accepted for (identity_users.mfa_last_step) and refuses that step and every earlier one.
 */
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Steps either side of now a code may belong to. */
export const TOTP_WINDOW = 1;

/** A new secret, base32 without padding (32 characters), as AssociateSoftwareToken's SecretCode. */
export function newTotpSecret(): string {
  return new Secret({ buffer: new Uint8Array(randomBytes(20)).buffer }).base32;
}

const totpOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: DIGITS, period: TOTP_PERIOD_SECONDS });

/**
 * The time step `code` belongs to, if it is right within the window and later than `lastStep`; null
 * otherwise (wrong, too old or too new, or a step already used).
 */
export function totpStep(secret: string, code: string, now: Date, lastStep: number | null): number | null {
  if (!new RegExp(`^\\d{${DIGITS}}$`).test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  if (delta === null) return null;
  const step = Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

/** The code an authenticator shows at `at` (tests and the operator's checks). */
export const totpCode = (secret: string, at: Date) => totpOf(secret).generate({ timestamp: at.getTime() });
