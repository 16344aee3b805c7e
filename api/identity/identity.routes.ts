/**
 * What the browser needs to talk to the identity service:
 * - GET /api/identity/config: the user pool and app client (public values) for aws-amplify;
 * - POST /api/identity/cognito (and .../cognito/, where the AWS SDK posts), with the embedded service
 *   only: the user-pool API aws-amplify and the SDK speak (the action in X-Amz-Target, JSON in and
 *   out), answered by api/identity/embedded-identity.ts;
 * - GET /api/identity/jwks.json, with the embedded service only: its public signing keys.
 *
 * After a sign-in through the gateway it sets the known-device cookie (./guessing.ts, decision 039):
 * signed, HttpOnly, SameSite=Strict, Secure under https, sent back only to /api/identity. A sign-in
 * from a known device passes the per-username and pool-wide password gates that strangers' guesses
 * may have closed.
 */
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { Deps } from '../deps.ts';
import { clientOf, rateLimit, trustedProxyList } from '../http/rate-limit.ts';
import { adminRouter, router } from '../http/routes.ts';
import { DEVICE_COOKIE, DEVICE_COOKIE_PATH, DEVICE_DAYS } from './guessing.ts';

const PREFIX = 'AWSCognitoIdentityProviderService.';
const AMZ_JSON = 'application/x-amz-json-1.1';

export function identityRoutes(deps: Pick<Deps, 'identity' | 'embeddedIdentity' | 'rateLimits' | 'clock' | 'integrations'>) {
  const { identity, embeddedIdentity, rateLimits } = deps;
  const r = router().get('/identity/config', (c) =>
    c.json({
      userPoolId: identity.userPoolId,
      userPoolClientId: identity.clientId,
      region: identity.region,
      // Relative: the browser resolves it against the page's origin.
      userPoolEndpoint: identity.embedded ? '/api/identity/cognito' : null,
      authFlowType: 'USER_PASSWORD_AUTH',
    }),
  );
  const service = embeddedIdentity;
  if (service) {
    const trusted = rateLimits.trustedProxies.length ? trustedProxyList(rateLimits.trustedProxies) : null;
    r.get('/identity/jwks.json', async (c) => c.json(await service.jwks()));
    const signUpLimit = rateLimit(deps, 'signUp');
    const actionOf = (target: string | undefined) => (target ?? '').replace(PREFIX, '');
    // A sign-up hashes a password and mails a code: limited per client (RATE_LIMIT_SIGN_UP), and
    // refused in Cognito's words, which aws-amplify shows.
    const limitSignUps: MiddlewareHandler = async (c, next) => {
      if (actionOf(c.req.header('x-amz-target')) !== 'SignUp') return next();
      const refused = await signUpLimit(c, next);
      if (!refused) return;
      return c.body(JSON.stringify({ __type: 'LimitExceededException', message: 'Too many sign-ups from this address. Please try again later.' }), 400, {
        'content-type': AMZ_JSON,
        'x-amzn-errortype': 'LimitExceededException',
      });
    };
    const deviceCookie = {
      path: DEVICE_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'Strict',
      secure: deps.integrations.siteUrl.startsWith('https:'),
      maxAge: DEVICE_DAYS * 86_400,
    } as const;
    const gateway: MiddlewareHandler = async (c) => {
      const action = actionOf(c.req.header('x-amz-target'));
      const body = await c.req.json().catch(() => null);
      const ctx = { clientAddress: clientOf(c, trusted), deviceUser: service.devices.read(getCookie(c, DEVICE_COOKIE)) };
      const answer: { status: number; body: unknown; signedIn?: string } =
        body && typeof body === 'object' && !Array.isArray(body)
          ? await service.call(action, body, ctx)
          : { status: 400, body: { __type: 'SerializationException', message: 'Malformed request body: send valid JSON.' } };
      if (answer.signedIn) setCookie(c, DEVICE_COOKIE, service.devices.issue(answer.signedIn), deviceCookie);
      const type = (answer.body as { __type?: string }).__type;
      return c.body(JSON.stringify(answer.body), answer.status as 200, { 'content-type': AMZ_JSON, ...(type ? { 'x-amzn-errortype': type } : {}) });
    };
    // aws-amplify posts to the endpoint as configured; the AWS SDK v3 adds a '/' (its path is the root).
    r.post('/identity/cognito', limitSignUps, gateway);
    r.post('/identity/cognito/', limitSignUps, gateway);
  }
  return {
    public: r,
    // Who the guard let in: the admin SPA asks this to tell "signed in" from "signed in and allowed".
    admin: adminRouter().get('/session', (c) => {
      const { username, email, groups } = c.get('admin');
      return c.json({ username, email, groups });
    }),
  };
}
