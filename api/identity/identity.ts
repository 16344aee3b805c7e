/**
 * Chooses the identity service: a real Cognito user pool when COGNITO_* are set, otherwise the
 * embedded one. Either way the server verifies tokens itself with the same verifier.
 */
import { parseAllowlist } from '../auth/admin-allowlist.ts';
import { cognitoGetUserEmail, createCognitoVerifier } from '../auth/cognito-verifier.ts';
import type { AccessTokenVerifier } from '../auth/verifier.ts';
import type { IdentityInfo } from '../deps.ts';
import type { Env } from '../env.ts';
import type { Logger } from '../logger.ts';
import type { DevOutbox } from '../mail/dev-outbox.ts';
import { startLocalIdentityService } from './local-identity-service.ts';

export interface Identity {
  info: IdentityInfo;
  verifier: AccessTokenVerifier;
  stop(): Promise<void>;
}

export async function startIdentity(env: Env, log: Logger, outbox: DevOutbox): Promise<Identity> {
  const allowlist = parseAllowlist(env.ADMIN_EMAILS);
  if (env.COGNITO_USER_POOL_ID && env.COGNITO_CLIENT_ID && env.COGNITO_REGION) {
    const endpoint = `https://cognito-idp.${env.COGNITO_REGION}.amazonaws.com/`;
    const issuer = `https://cognito-idp.${env.COGNITO_REGION}.amazonaws.com/${env.COGNITO_USER_POOL_ID}`;
    log.info('identity: Cognito user pool', { userPoolId: env.COGNITO_USER_POOL_ID, region: env.COGNITO_REGION });
    return {
      info: { userPoolId: env.COGNITO_USER_POOL_ID, clientId: env.COGNITO_CLIENT_ID, region: env.COGNITO_REGION, localEndpoint: null },
      verifier: createCognitoVerifier({ issuer, jwksUrl: `${issuer}/.well-known/jwks.json`, clientId: env.COGNITO_CLIENT_ID, allowlist, userEmail: cognitoGetUserEmail(endpoint) }),
      stop: async () => {},
    };
  }
  const local = await startLocalIdentityService({
    dataDir: env.IDENTITY_DATA_DIR,
    port: env.IDENTITY_LOCAL_PORT,
    allowlist,
    log,
    onMessage: ({ username, to, subject, text, code }) => {
      // SPEC/issue 3: codes reach the admin through the server log and the development outbox.
      log.info('identity: verification code', { username, code });
      outbox.deliver({ to, subject, text });
    },
  });
  log.info('identity: embedded identity service', { userPoolId: local.userPoolId, endpoint: local.endpoint, adminEmails: allowlist.entries.length });
  if (!allowlist.entries.length) log.warn('identity: ADMIN_EMAILS is empty, so sign-up is closed; create an admin with `npm run admin:create`');
  return {
    info: { userPoolId: local.userPoolId, clientId: local.clientId, region: null, localEndpoint: local.endpoint },
    verifier: createCognitoVerifier({ issuer: local.issuer, jwksUrl: local.jwksUrl, clientId: local.clientId, allowlist, userEmail: cognitoGetUserEmail(local.endpoint) }),
    stop: local.stop,
  };
}
