/**
 * Response hardening: the security headers of every response the one Node process
 * sends. The API gets them from `apiSecurityHeaders` (a Hono middleware in createApp), kept lists
 * from `securityHeadersFor` (api/http/public-cache.ts); the site's stored pages, static files,
 * /theme.css and errors from `securityHeadersFor` in their one writeHead, and Astro's pages (the
 * admin, /login, 404s) from `applySecurityHeaders` (api/site/site.ts).
 * Why each value is what it is: docs/decisions/012-security-headers.md.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import type { IdentityInfo, IntegrationSettings } from '../deps.ts';

export interface SecuritySettings {
  /**
   * The public origin (SITE_URL). An https origin means a TLS proxy in front of this server: its
   * X-Forwarded-Proto is believed (HSTS), and pages upgrade stray http: subresources.
   */
  siteUrl: string;
  /** A real Cognito user pool's region: the admin's browser signs in at cognito-idp.<region>.amazonaws.com. */
  cognitoRegion: string | null;
}

export const securitySettings = (deps: {
  identity: Pick<IdentityInfo, 'embedded' | 'region'>;
  integrations: Pick<IntegrationSettings, 'siteUrl'>;
}): SecuritySettings => ({
  siteUrl: deps.integrations.siteUrl,
  cognitoRegion: deps.identity.embedded ? null : deps.identity.region,
});

const isHttps = (settings: SecuritySettings) => settings.siteUrl.startsWith('https:');

/** The Cognito user pool endpoint aws-amplify talks to (China regions live under amazonaws.com.cn). */
export function cognitoOrigin(region: string): string {
  if (!/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region)) throw new Error(`COGNITO_REGION is not an AWS region (for example us-west-2): ${region}`);
  return `https://cognito-idp.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}`;
}

/**
 * The pages' policy. Scripts: this origin and the hashes of the inline scripts the build emits
 * (`scriptHashes`, e.g. `'sha256-…'`), nothing else: no 'unsafe-inline', no 'unsafe-eval', no inline
 * event handlers.
 */
export function pagePolicy(settings: SecuritySettings, scriptHashes: string[], { framedBySelf = true } = {}): string {
  const https = isHttps(settings);
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", ...scriptHashes],
    // Inline styles stay allowed (decision 012): Radix's dialogs and menus lock the page's scroll with
    // a <style> element written at run time (react-remove-scroll, sized to the scrollbar), and the
    // server-rendered Radix tabs of /login carry style attributes; neither can be hashed ahead. No
    // hash may be listed here: a hash would switch 'unsafe-inline' off.
    ['style-src', "'self'", "'unsafe-inline'"],
    // External articles show their source's image, from any https origin (any http one too while the
    // site itself is plain http, in development; an https site upgrades them instead).
    ['img-src', "'self'", 'data:', 'https:', ...(https ? [] : ['http:'])],
    ['font-src', "'self'"],
    ['connect-src', "'self'", ...(settings.cognitoRegion ? [cognitoOrigin(settings.cognitoRegion)] : [])],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    // This origin only: the admin's Themes screen frames the home page to preview a theme (decision
    // 031); no other site may frame a page (clickjacking). The admin and the sign-in page: nobody.
    ['frame-ancestors', framedBySelf ? "'self'" : "'none'"],
    ...(https ? ([['upgrade-insecure-requests']] as [string][]) : []),
  ];
  return directives.map((d) => d.join(' ')).join('; ');
}

/** The API answers JSON, never a document: nothing may load, run or frame in it. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Powerful features the site never uses, refused for it and anything it might embed; the interest
 * cohorts of FLoC and its successor Topics too. Only names Chromium knows: an unknown one is a console
 * warning on every page (the e2e spec watches for it).
 */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'interest-cohort',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/** One year; not includeSubDomains or preload: the firm's other hosts are not ours to commit to HTTPS. */
export const HSTS = 'max-age=31536000';

/** Headers every response carries, whatever it is. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  // Stricter than the browsers' default (strict-origin-when-cross-origin): other sites do not even
  // learn that a visitor came from a family-law firm's pages.
  'Referrer-Policy': 'same-origin',
  'Permissions-Policy': PERMISSIONS_POLICY,
  // frame-ancestors says it to current browsers; this says it to old ones (the site's own: SAMEORIGIN).
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** A response's security headers, built once: over plain http, and over HTTPS (with HSTS). */
export interface HeaderSet {
  plain: Readonly<Record<string, string>>;
  secure: Readonly<Record<string, string>>;
  /** Lower-case names, for replacing a handler's own values. */
  names: ReadonlySet<string>;
}

export function headerSet(policy: string, extra: Record<string, string> = {}): HeaderSet {
  const plain = { ...COMMON_HEADERS, 'Content-Security-Policy': policy, ...extra };
  const secure = { ...plain, 'Strict-Transport-Security': HSTS };
  return { plain, secure, names: new Set(Object.keys(secure).map((n) => n.toLowerCase())) };
}

/** The API's: it answers JSON to this site's pages only, so other origins may not even embed it. */
export const API_HEADERS = headerSet(API_POLICY, { 'Cross-Origin-Resource-Policy': 'same-origin' });

/** The site's, for every page, stored page, static file and error it sends: framed by this origin only (decision 031). */
export const siteHeaders = (settings: SecuritySettings, scriptHashes: string[]) =>
  headerSet(pagePolicy(settings, scriptHashes), { 'X-Frame-Options': 'SAMEORIGIN' });

/** The admin's and the sign-in page's: framed by nobody, this origin included (nothing there needs it). */
export const privatePageHeaders = (settings: SecuritySettings, scriptHashes: string[]) =>
  headerSet(pagePolicy(settings, scriptHashes, { framedBySelf: false }), { 'X-Frame-Options': 'DENY' });

/** The admin portal, the sign-in page and an admin invitation's page (a password is chosen there). */
export const isPrivatePage = (pathname: string) => /^\/(admin|login|accept-invitation)(\/|$)/.test(pathname);

/**
 * Whether the request reached the visitor over HTTPS: a TLS socket here, or, when SITE_URL says the
 * site is served over https (so a TLS proxy is in front), the proxy's X-Forwarded-Proto. HSTS must not
 * be sent over plain http (RFC 6797 §7.2); with an http SITE_URL the header is never believed.
 */
export function cameOverHttps(settings: SecuritySettings, req: { encrypted: boolean; forwardedProto: string | undefined | null }): boolean {
  if (req.encrypted) return true;
  if (!isHttps(settings)) return false;
  return (req.forwardedProto ?? '').split(',')[0]!.trim().toLowerCase() === 'https';
}

/** A TLS socket (node:https) says so; this server listens with node:http, so behind a proxy it never does. */
export const overTls = (req: IncomingMessage) => Boolean((req.socket as { encrypted?: boolean } | undefined)?.encrypted);

/** Hono middleware for the API: every answer (routes, 404s, errors, refused bodies) gets the headers. */
export function apiSecurityHeaders(settings: SecuritySettings): MiddlewareHandler {
  return async (c, next) => {
    await next();
    // On the Node server, @hono/node-server passes the Node request as c.env.incoming; in-process calls have none.
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const https = cameOverHttps(settings, { encrypted: incoming ? overTls(incoming) : false, forwardedProto: c.req.header('x-forwarded-proto') });
    setHeaders(c, https ? API_HEADERS.secure : API_HEADERS.plain);
  };
}

/**
 * Sets headers on the response a handler already made, in place. Hono's `c.header()` after `next()`
 * copies the whole response for each header; a response whose headers are immutable (one passed
 * through from fetch) is copied once, by the first `c.header()`, and the rest go on the copy.
 */
export function setHeaders(c: Context, headers: Readonly<Record<string, string>>) {
  const entries = Object.entries(headers);
  if (!entries.length) return;
  try {
    for (const [name, value] of entries) c.res.headers.set(name, value);
  } catch {
    for (const [name, value] of entries) c.header(name, value);
  }
}

/** The set's headers for one request: with HSTS when it came over HTTPS. */
export function securityHeadersFor(settings: SecuritySettings, set: HeaderSet, req: IncomingMessage): Readonly<Record<string, string>> {
  return cameOverHttps(settings, { encrypted: overTls(req), forwardedProto: req.headers['x-forwarded-proto']?.toString() }) ? set.secure : set.plain;
}

/**
 * Puts a header set on one Node response, and keeps it over a handler's own values: Astro sends its
 * page policy (script and style sources only) with the pages it renders on demand; this server's
 * policy has the same script hashes plus every other directive, and replaces it.
 */
export function applySecurityHeaders(settings: SecuritySettings, set: HeaderSet, req: IncomingMessage, res: ServerResponse) {
  for (const [name, value] of Object.entries(securityHeadersFor(settings, set, req))) res.setHeader(name, value);
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    const at = rest.findIndex((arg) => arg !== null && typeof arg === 'object');
    if (at >= 0) rest[at] = withoutHeaders(rest[at] as Record<string, unknown> | unknown[], set.names);
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, statusCode, ...rest);
  } as typeof res.writeHead;
}

/** A writeHead headers argument (an object, a flat [name, value, …] list or [name, value] pairs) without the given names. */
function withoutHeaders(headers: Record<string, unknown> | unknown[], names: ReadonlySet<string>): Record<string, unknown> | unknown[] {
  if (Array.isArray(headers)) {
    if (headers.length && Array.isArray(headers[0])) return (headers as [string, unknown][]).filter(([name]) => !names.has(String(name).toLowerCase()));
    const kept: unknown[] = [];
    for (let i = 0; i < headers.length; i += 2) if (!names.has(String(headers[i]).toLowerCase())) kept.push(headers[i], headers[i + 1]);
    return kept;
  }
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.has(name.toLowerCase())));
}
