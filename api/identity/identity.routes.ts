/**
 * What the browser needs to talk to the identity service:
 * - GET /api/identity/config: the user pool and app client (public values) for aws-amplify;
 * - POST /api/identity/cognito, with the embedded service only: a same-origin gateway to it, so the
 *   browser never needs its loopback port. It passes user-facing actions only (never the Admin*
 *   ones, which cognito-local answers without credentials) and fills two gaps of cognito-local:
 *   GetTokensFromRefreshToken (answered through InitiateAuth REFRESH_TOKEN_AUTH) and marking the
 *   e-mail verified when a sign-up is confirmed with its code, as a real user pool does.
 */
import type { Deps } from '../deps.ts';
import { badRequest } from '../http/errors.ts';
import { adminRouter, router, type FeatureRoutes } from '../http/routes.ts';
import { cognitoCall } from './local-identity-service.ts';

const PREFIX = 'AWSCognitoIdentityProviderService.';
const userFacing = new Set([
  'SignUp',
  'ConfirmSignUp',
  'ResendConfirmationCode',
  'InitiateAuth',
  'RespondToAuthChallenge',
  'GetUser',
  'ForgotPassword',
  'ConfirmForgotPassword',
  'ChangePassword',
  'RevokeToken',
  'GetTokensFromRefreshToken',
]);

export function identityRoutes({ identity }: Deps): FeatureRoutes {
  const r = router().get('/identity/config', (c) =>
    c.json({
      userPoolId: identity.userPoolId,
      userPoolClientId: identity.clientId,
      region: identity.region,
      // Relative: the browser resolves it against the page's origin.
      userPoolEndpoint: identity.localEndpoint ? '/api/identity/cognito' : null,
      authFlowType: 'USER_PASSWORD_AUTH',
    }),
  );
  const local = identity.localEndpoint;
  if (local) {
    r.post('/identity/cognito', async (c) => {
      const action = (c.req.header('x-amz-target') ?? '').replace(PREFIX, '');
      if (!userFacing.has(action)) throw badRequest('This identity action is not available.');
      const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
      if (!body || typeof body !== 'object') throw badRequest('Malformed request body: send valid JSON.');
      const forward = (target: string, payload: unknown) =>
        fetch(local, {
          method: 'POST',
          headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': PREFIX + target },
          body: JSON.stringify(payload),
        });
      let res: Response;
      if (action === 'GetTokensFromRefreshToken') {
        res = await forward('InitiateAuth', { AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: body.ClientId, AuthParameters: { REFRESH_TOKEN: body.RefreshToken } });
      } else {
        res = await forward(action, body);
      }
      let text = await res.text();
      // A real pool answers a wrong password with NotAuthorizedException; cognito-local says
      // InvalidPasswordException, which the wrapper would read as a password-policy failure.
      if (!res.ok && action === 'InitiateAuth' && text.includes('InvalidPasswordException')) {
        text = JSON.stringify({ __type: 'NotAuthorizedException', message: 'Incorrect username or password.' });
      }
      if (res.ok && action === 'ConfirmSignUp') {
        // cognito-local wants the address itself in the same update as its verified flag.
        const user = await cognitoCall<{ UserAttributes?: { Name: string; Value: string }[] }>(local, 'AdminGetUser', {
          UserPoolId: identity.userPoolId,
          Username: body.Username,
        });
        const email = user.UserAttributes?.find((a) => a.Name === 'email')?.Value;
        if (email) {
          await cognitoCall(local, 'AdminUpdateUserAttributes', {
            UserPoolId: identity.userPoolId,
            Username: body.Username,
            UserAttributes: [
              { Name: 'email', Value: email },
              { Name: 'email_verified', Value: 'true' },
            ],
          });
        }
      }
      return c.body(text, res.status as 200, { 'content-type': res.headers.get('content-type') ?? 'application/x-amz-json-1.1' });
    });
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
