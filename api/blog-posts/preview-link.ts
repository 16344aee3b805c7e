/**
 * A draft's preview link (issue 19, item 2): `/blog-preview#<id>.<expires>.<mac>`, where the mac is an
 * HMAC of the post's id and the moment the link stops working, under a key derived from the install's
 * secrets key for this one purpose (SecretBox.digest, as a booking's own link: decision 026). It cannot
 * be guessed, altered or extended, needs no storage, and opens on every container that shares the
 * key. It travels in the fragment, so no log, CDN or Referer holds it.
 *
 * Revoking (docs/decisions/042): a post's previewsRevokedAt refuses every link made before it. A
 * link's making time is its expiry less PREVIEW_LINK_DAYS, to the second; so the revocation counts
 * from the next whole second, and a link made within that second expires up to a second later
 * instead, so that it is still made after.
 */
import type { SecretBox } from '../crypto/secret-box.ts';
import { BLOG_PREVIEW_PATH } from '../../src/shared/blog/preview.ts';

const CONTEXT = 'blog-post-preview-link';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A week: long enough to pass a draft round the office, short enough that a forwarded link dies. */
export const PREVIEW_LINK_DAYS = 7;

export function previewToken(secrets: SecretBox, postId: string, expiresAt: Date): string {
  const signed = `${postId}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${signed}.${secrets.digest(signed, CONTEXT)}`;
}

export type PreviewCheck = { postId: string; expiresAt: Date } | 'invalid' | 'expired';

/** Whose preview a token opens at `now`: the post, or why not (made elsewhere or altered; too late). */
export function checkPreviewToken(secrets: SecretBox, token: string | undefined | null, now: Date): PreviewCheck {
  if (!token || token.length > 200) return 'invalid';
  const [postId, expires, mac, ...rest] = token.split('.');
  if (rest.length || !postId || !expires || !mac || !UUID.test(postId) || !/^\d{1,12}$/.test(expires)) return 'invalid';
  if (!secrets.matchesDigest(`${postId}.${expires}`, CONTEXT, mac)) return 'invalid';
  const expiresAt = new Date(Number(expires) * 1000);
  return expiresAt <= now ? 'expired' : { postId, expiresAt };
}

/** The revocation's moment as links are compared with it: the next whole second (strictly after). */
const revokedFrom = (revokedAt: Date) => (Math.floor(revokedAt.getTime() / 1000) + 1) * 1000;
const LINK_MS = PREVIEW_LINK_DAYS * 24 * 60 * 60 * 1000;

/** When a link made at `now` stops working: a week on, counted from the revocation's second if that is later. */
export function previewExpiry(now: Date, revokedAt: Date | null): Date {
  return new Date(Math.max(now.getTime(), revokedAt ? revokedFrom(revokedAt) : 0) + LINK_MS);
}

/** Whether a link that expires at `expiresAt` was made before the post's previews were revoked. */
export function madeBeforeRevocation(expiresAt: Date, revokedAt: Date | null): boolean {
  return revokedAt !== null && expiresAt.getTime() - LINK_MS < revokedFrom(revokedAt);
}

export const previewUrl = (siteUrl: string, token: string) => new URL(`${BLOG_PREVIEW_PATH}#${token}`, siteUrl).href;
