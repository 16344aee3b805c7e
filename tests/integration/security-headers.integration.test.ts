/**
 * Response hardening, on the API in-process: every answer (a list, an admin call, a
 * 404, a refused token, a malformed or oversized body) carries the security headers; HSTS only over
 * HTTPS behind the proxy of an https site. The site's responses are checked in the browser by
 * tests/e2e/security-headers.spec.ts. Decision 012.
 */
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../api/app.ts';
import { createTestContext, forEachDialect, type CallResult } from '../support/test-app.ts';

function expectHardened(res: CallResult, label: string) {
  const h = res.headers;
  expect(h.get('content-security-policy'), label).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  expect(h.get('x-content-type-options'), label).toBe('nosniff');
  expect(h.get('referrer-policy'), label).toBe('same-origin');
  expect(h.get('x-frame-options'), label).toBe('DENY');
  expect(h.get('cross-origin-opener-policy'), label).toBe('same-origin');
  expect(h.get('cross-origin-resource-policy'), label).toBe('same-origin');
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'interest-cohort', 'browsing-topics'])
    expect(h.get('permissions-policy'), label).toContain(`${feature}=()`);
  expect(h.get('x-powered-by'), label).toBeNull();
  // The API keeps no session: no cookie, so none to secure (ARCHITECTURE: bearer tokens only).
  expect(h.get('set-cookie'), label).toBeNull();
}

forEachDialect('security headers on every API answer', (ctx) => {
  it('on success, public and admin', async () => {
    for (const [label, res] of [
      ['GET /api/blog-posts', await ctx().call('GET', '/api/blog-posts')],
      ['GET /api/health', await ctx().call('GET', '/api/health')],
      ['GET /api/themes/active', await ctx().call('GET', '/api/themes/active')],
      ['GET /api/admin/testimonials', await ctx().admin('GET', '/api/admin/testimonials')],
    ] as const) {
      expect(res.status, label).toBe(200);
      expectHardened(res, label);
    }
  });

  it('on every kind of refusal: unknown path, no token, malformed JSON, invalid fields, oversized body', async () => {
    const cases: [string, CallResult, number][] = [
      ['unknown path', await ctx().call('GET', '/api/no-such-endpoint'), 404],
      ['no token', await ctx().call('GET', '/api/admin/testimonials'), 401],
      ['bad token', await ctx().call('GET', '/api/admin/testimonials', { token: 'forged' }), 401],
      ['malformed JSON', await ctx().call('POST', '/api/contact', { rawBody: '{"name":' }), 400],
      ['invalid fields', await ctx().call('POST', '/api/contact', { body: { email: 'not an address' } }), 400],
      ['oversized body', await ctx().call('POST', '/api/contact', { rawBody: JSON.stringify({ message: 'x'.repeat(MAX_BODY_BYTES + 1) }) }), 413],
    ];
    for (const [label, res, status] of cases) {
      expect(res.status, label).toBe(status);
      expectHardened(res, label);
    }
  });

  it('sends no HSTS over plain http, even when a client claims https (SITE_URL is http here)', async () => {
    expect((await ctx().call('GET', '/api/health')).headers.get('strict-transport-security')).toBeNull();
    expect((await ctx().call('GET', '/api/health', { headers: { 'x-forwarded-proto': 'https' } })).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('HSTS behind the TLS proxy of an https site', () => {
  it('is sent when the proxy says the visitor came over https, and only then', async () => {
    const ctx = await createTestContext('sqlite', { integrations: { siteUrl: 'https://www.example-firm.com' } });
    try {
      const overHttps = await ctx.call('GET', '/api/blog-posts', { headers: { 'x-forwarded-proto': 'https' } });
      expect(overHttps.headers.get('strict-transport-security')).toBe('max-age=31536000');
      expectHardened(overHttps, 'over https');
      const refused = await ctx.call('GET', '/api/admin/testimonials', { headers: { 'x-forwarded-proto': 'https' } });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('strict-transport-security')).toBe('max-age=31536000');
      // The proxy's own health check over plain http, or a proxy that says http.
      expect((await ctx.call('GET', '/api/health')).headers.get('strict-transport-security')).toBeNull();
      expect((await ctx.call('GET', '/api/health', { headers: { 'x-forwarded-proto': 'http' } })).headers.get('strict-transport-security')).toBeNull();
    } finally {
      await ctx.background.stop();
      await ctx.database.drop();
    }
  });
});
