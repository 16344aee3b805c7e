/**
 * A draft's preview link (issue 19, item 2): `/blog-preview#<id>.<expires>.<mac>`, where the mac is an
 * HMAC of the post's id and the moment the link stops working, under a key derived from the install's
 * secrets key for this one purpose (SecretBox.digest, as a booking's own link: decision 026). It cannot
 * be guessed, altered or extended, needs no storage, and opens on every container that shares the
 * key. It travels in the fragment, so no log, CDN or Referer holds it.
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

export const previewUrl = (siteUrl: string, token: string) => new URL(`${BLOG_PREVIEW_PATH}#${token}`, siteUrl).href;
