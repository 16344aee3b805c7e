/**
 * A booking's own link (issue 18, self-service): `/manage-booking#<id>.<mac>`, where the mac is an
 * HMAC of the appointment's id under a key derived from the install's secrets key (SecretBox.digest).
 * It cannot be guessed or altered, needs no storage, and works on every container that shares the
 * key; after a key rotation the links already sent still open (SECRETS_KEY_PREVIOUS). It is good for
 * as long as the appointment can be changed: the service, not the link, decides that (until it starts).
 */
import { MANAGE_BOOKING_PATH } from '../../src/shared/booking/self-service.ts';
import type { SecretBox } from '../crypto/secret-box.ts';

const CONTEXT = 'appointment-manage-link';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function manageToken(secrets: SecretBox, appointmentId: string): string {
  return `${appointmentId}.${secrets.digest(appointmentId, CONTEXT)}`;
}

/** The appointment a token is for, or null when it was not made here (altered, truncated, made up). */
export function appointmentIdOf(secrets: SecretBox, token: string | undefined | null): string | null {
  if (!token || token.length > 200) return null;
  const dot = token.indexOf('.');
  const id = token.slice(0, dot);
  if (dot < 0 || !UUID.test(id)) return null;
  return secrets.matchesDigest(id, CONTEXT, token.slice(dot + 1)) ? id : null;
}

/** The link as the e-mails give it. */
export const manageUrl = (siteUrl: string, token: string) => new URL(`${MANAGE_BOOKING_PATH}#${token}`, siteUrl).href;
