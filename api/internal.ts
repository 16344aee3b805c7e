/**
 * Calls one part of this process makes to another through the API (the site asking what only the
 * site needs): they carry a per-process secret, so a route kept for them answers no outside request.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

const INTERNAL_HEADER = 'x-internal-call';
const secret = Buffer.from(randomBytes(24).toString('base64url'));

/** The headers an internal call sends. */
export const internalHeaders: Record<string, string> = { [INTERNAL_HEADER]: secret.toString() };

/** Whether a request's headers are an internal call's. */
export function isInternalCall(headers: Headers): boolean {
  const given = Buffer.from(headers.get(INTERNAL_HEADER) ?? '');
  return given.length === secret.length && timingSafeEqual(given, secret);
}
