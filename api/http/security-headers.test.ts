import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  API_HEADERS,
  applySecurityHeaders,
  cameOverHttps,
  cognitoOrigin,
  isPrivatePage,
  pagePolicy,
  privatePageHeaders,
  siteHeaders,
  type SecuritySettings,
} from './security-headers.ts';

const http: SecuritySettings = { siteUrl: 'http://localhost:4321', cognitoRegion: null };
const https: SecuritySettings = { siteUrl: 'https://www.example-firm.com', cognitoRegion: null };
const hashes = ["'sha256-abc='", "'sha256-def='"];

const directives = (policy: string) => new Map(policy.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]));

describe('pagePolicy', () => {
  it('lets scripts run from this origin and by the build hashes only', () => {
    const csp = directives(pagePolicy(http, hashes));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'", ...hashes]);
    expect(pagePolicy(http, hashes)).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    // The admin's theme preview frames the home page (decision 031): this origin only.
    expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
  });

  it('allows inline styles without listing a hash (a hash would switch unsafe-inline off)', () => {
    expect(directives(pagePolicy(http, hashes)).get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it('connects to the configured Cognito user pool, and nowhere else', () => {
    expect(directives(pagePolicy(http, hashes)).get('connect-src')).toEqual(["'self'"]);
    expect(directives(pagePolicy({ ...https, cognitoRegion: 'us-west-2' }, hashes)).get('connect-src')).toEqual([
      "'self'",
      'https://cognito-idp.us-west-2.amazonaws.com',
    ]);
    expect(cognitoOrigin('cn-north-1')).toBe('https://cognito-idp.cn-north-1.amazonaws.com.cn');
    expect(() => cognitoOrigin('evil.com/x')).toThrow(/COGNITO_REGION/);
  });

  it('over https: images from https origins, stray http ones upgraded; over http (development) http images too', () => {
    const secure = directives(pagePolicy(https, hashes));
    expect(secure.get('img-src')).toEqual(["'self'", 'data:', 'https:']);
    expect(secure.has('upgrade-insecure-requests')).toBe(true);
    const plain = directives(pagePolicy(http, hashes));
    expect(plain.get('img-src')).toEqual(["'self'", 'data:', 'https:', 'http:']);
    expect(plain.has('upgrade-insecure-requests')).toBe(false);
  });
});

describe('cameOverHttps', () => {
  it('believes a TLS socket always, and X-Forwarded-Proto only when SITE_URL is https', () => {
    expect(cameOverHttps(http, { encrypted: true, forwardedProto: undefined })).toBe(true);
    expect(cameOverHttps(http, { encrypted: false, forwardedProto: 'https' })).toBe(false);
    expect(cameOverHttps(https, { encrypted: false, forwardedProto: 'https' })).toBe(true);
    expect(cameOverHttps(https, { encrypted: false, forwardedProto: 'HTTPS, http' })).toBe(true);
    expect(cameOverHttps(https, { encrypted: false, forwardedProto: 'http' })).toBe(false);
    expect(cameOverHttps(https, { encrypted: false, forwardedProto: undefined })).toBe(false);
  });
});

describe('applySecurityHeaders', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function serve(settings: SecuritySettings, handler: (res: import('node:http').ServerResponse) => void) {
    const set = siteHeaders(settings, hashes);
    server = createServer((req, res) => {
      applySecurityHeaders(settings, set, req, res);
      handler(res);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`;
  }

  it("replaces a handler's own policy (Astro's page policy) given to writeHead as an object or a list", async () => {
    let form = 0;
    const url = await serve(http, (res) => {
      const theirs = "script-src 'self' 'sha256-theirs='";
      if (form++ === 0)
        res.writeHead(200, { 'Content-Type': 'text/html', 'content-security-policy': theirs, 'x-frame-options': 'SAMEORIGIN' }).end('<p>page</p>');
      else res.writeHead(404, ['content-type', 'text/html', 'Content-Security-Policy', theirs]).end('<p>gone</p>');
    });
    for (const status of [200, 404]) {
      const res = await fetch(url);
      expect(res.status).toBe(status);
      expect(res.headers.get('content-security-policy')).toBe(pagePolicy(http, hashes));
      expect(res.headers.get('content-type')).toBe('text/html');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('strict-transport-security')).toBeNull();
      expect(res.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('adds HSTS behind a TLS proxy of an https site, and only then', async () => {
    const url = await serve(https, (res) => res.end('ok'));
    expect((await fetch(url, { headers: { 'x-forwarded-proto': 'https' } })).headers.get('strict-transport-security')).toBe('max-age=31536000');
    expect((await fetch(url)).headers.get('strict-transport-security')).toBeNull();
    expect((await fetch(url, { headers: { 'x-forwarded-proto': 'http' } })).headers.get('strict-transport-security')).toBeNull();
  });

  it('the API set refuses everything to a JSON answer opened as a document', () => {
    const csp = directives(API_HEADERS.plain['Content-Security-Policy']!);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(API_HEADERS.plain['Cross-Origin-Resource-Policy']).toBe('same-origin');
  });

  it('the admin and the sign-in page may be framed by nothing, the public pages by this origin only', () => {
    const settings = { siteUrl: 'https://firm.example.com', cognitoRegion: null };
    const admin = privatePageHeaders(settings, []);
    expect(directives(admin.plain['Content-Security-Policy']!).get('frame-ancestors')).toEqual(["'none'"]);
    expect(admin.plain['X-Frame-Options']).toBe('DENY');
    const site = siteHeaders(settings, []);
    expect(directives(site.plain['Content-Security-Policy']!).get('frame-ancestors')).toEqual(["'self'"]);
    for (const path of ['/admin', '/admin/', '/admin/themes', '/login', '/login/', '/accept-invitation']) expect(isPrivatePage(path), path).toBe(true);
    for (const path of ['/', '/administrator', '/logins', '/blog/admin', '/accept-invitations']) expect(isPrivatePage(path), path).toBe(false);
  });
});
