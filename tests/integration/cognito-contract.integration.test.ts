/**
 * The embedded user pool is one any stock Cognito client can use (docs/decisions/040): the AWS SDK v3
 * (`@aws-sdk/client-cognito-identity-provider`) and aws-amplify, unmodified, pointed at the gateway
 * served over real HTTP, on SQLite and PostgreSQL. Amplify signs in with its default flow
 * (USER_SRP_AUTH), refreshes, reads the user, sets up TOTP both ways (signed in, and the MFA_SETUP
 * challenge of an admin ADMIN_MFA=required covers), answers the TOTP challenge, and signs out; the
 * SDK does the same calls by name and gets Cognito's errors as its own exception classes.
 */
import { randomBytes } from 'node:crypto';
import {
  AssociateSoftwareTokenCommand,
  CognitoIdentityProviderClient,
  GetUserCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  NotAuthorizedException,
  RespondToAuthChallengeCommand,
  RevokeTokenCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
  CodeMismatchException,
  GetTokensFromRefreshTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { Amplify } from 'aws-amplify';
import {
  confirmSignIn,
  fetchAuthSession,
  fetchMFAPreference,
  fetchUserAttributes,
  getCurrentUser,
  setUpTOTP,
  signIn,
  signOut,
  updateMFAPreference,
  verifyTOTPSetup,
} from 'aws-amplify/auth';
import { ConsoleLogger } from 'aws-amplify/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowlist } from '../../api/auth/admin-allowlist.ts';
import { createSecretBox } from '../../api/crypto/secret-box.ts';
import { TOTP_PERIOD_SECONDS, totpCode } from '../../api/identity/mfa.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/test-database.ts';
import { movableClock, servePool, type ServedPool } from '../support/served-identity.ts';
import { srpClient } from '../support/srp-client.ts';

const PASSWORD = 'Cedar-Orbit-Lantern-58';
const allowlist = parseAllowlist('');
const STEP_MS = TOTP_PERIOD_SECONDS * 1000;
// Amplify warns at every configure that the endpoint is not AWS's: it is meant not to be.
ConsoleLogger.LOG_LEVEL = 'ERROR';

for (const dialect of dialects) {
  describe(`a stock Cognito client against the embedded pool [${dialect}]`, () => {
    let database: TestDatabase;
    let optional: ServedPool;
    let required: ServedPool;
    let sdk: CognitoIdentityProviderClient;
    const clock = movableClock();
    const secrets = createSecretBox(randomBytes(32));
    /** The code an authenticator shows now, by the servers' clock; the next step once `fresh`. */
    const code = (secret: string, fresh = true) => {
      if (fresh) clock.advance(STEP_MS); // each step's code is taken once: a later one is needed
      return totpCode(secret, clock.now());
    };
    const configure = (pool: ServedPool) =>
      Amplify.configure({
        Auth: { Cognito: { userPoolId: pool.identity.userPoolId, userPoolClientId: pool.identity.clientId, userPoolEndpoint: pool.endpoint } },
      });
    const adminStatus = async (pool: ServedPool, token: string) =>
      (await fetch(`${pool.base}/api/admin/testimonials`, { headers: { authorization: `Bearer ${token}` } })).status;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      // Two containers on one database: the same pool, ADMIN_MFA optional on one and required on the other.
      optional = await servePool(database, { secrets, allowlist, adminMfa: 'optional', clock });
      required = await servePool(database, { secrets, allowlist, adminMfa: 'required', clock });
      await optional.identity.admins.create({ username: 'ana.partner', email: 'ana@firm.test', password: PASSWORD });
      await optional.identity.admins.create({ username: 'cleo.new', email: 'cleo@firm.test', password: PASSWORD });
      await optional.identity.admins.create({ username: 'sdk.user', email: 'sdk@firm.test', password: PASSWORD });
      // The SDK as any program would make it: a region and the endpoint, no credentials (these calls take none).
      sdk = new CognitoIdentityProviderClient({ region: 'us-west-2', endpoint: optional.endpoint });
    });
    afterAll(async () => {
      await signOut().catch(() => {});
      sdk?.destroy();
      await optional?.close();
      await required?.close();
      await database?.drop();
    });

    it('aws-amplify: signIn (USER_SRP_AUTH), getCurrentUser, fetchUserAttributes, forced refresh, signOut', async () => {
      configure(optional);
      const result = await signIn({ username: 'ana.partner', password: PASSWORD });
      expect(result).toEqual({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
      expect(await getCurrentUser()).toMatchObject({ username: 'ana.partner' });
      expect(await fetchUserAttributes()).toMatchObject({ email: 'ana@firm.test', email_verified: 'true' });
      const first = await fetchAuthSession();
      const access = first.tokens!.accessToken.toString();
      expect(await adminStatus(optional, access)).toBe(200);
      const refreshed = await fetchAuthSession({ forceRefresh: true });
      const renewed = refreshed.tokens!.accessToken.toString();
      expect(renewed).not.toBe(access);
      expect(await adminStatus(optional, renewed)).toBe(200);
      await signOut();
      // Amplify's signOut revokes the refresh token: its session, and every token of it, is over.
      expect(await adminStatus(optional, renewed)).toBe(401);
      await expect(signIn({ username: 'ana.partner', password: 'Not-The-Password-1' })).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    });

    it('aws-amplify: setUpTOTP, verifyTOTPSetup, updateMFAPreference; then CONFIRM_SIGN_IN_WITH_TOTP_CODE; global signOut', async () => {
      configure(optional);
      await signIn({ username: 'ana.partner', password: PASSWORD });
      const setup = await setUpTOTP();
      const uri = setup.getSetupUri('Firm', 'ana.partner');
      expect(uri.searchParams.get('secret')).toBe(setup.sharedSecret);
      await verifyTOTPSetup({ code: code(setup.sharedSecret), options: { friendlyDeviceName: 'phone' } });
      await updateMFAPreference({ totp: 'PREFERRED' });
      expect(await fetchMFAPreference()).toMatchObject({ enabled: ['TOTP'], preferred: 'TOTP' });
      await signOut();

      const challenged = await signIn({ username: 'ana.partner', password: PASSWORD });
      expect(challenged).toEqual({ isSignedIn: false, nextStep: { signInStep: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' } });
      await expect(confirmSignIn({ challengeResponse: '000000' === code(setup.sharedSecret, false) ? '111111' : '000000' })).rejects.toMatchObject({
        name: 'CodeMismatchException',
      });
      const done = await confirmSignIn({ challengeResponse: code(setup.sharedSecret) });
      expect(done).toEqual({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
      const access = (await fetchAuthSession()).tokens!.accessToken.toString();
      expect(await adminStatus(optional, access)).toBe(200);
      await signOut({ global: true });
      expect(await adminStatus(optional, access)).toBe(401);
    });

    it('aws-amplify: an admin ADMIN_MFA=required covers sets TOTP up at sign-in (CONTINUE_SIGN_IN_WITH_TOTP_SETUP)', async () => {
      configure(required);
      const challenged = await signIn({ username: 'cleo.new', password: PASSWORD });
      expect(challenged.isSignedIn).toBe(false);
      expect(challenged.nextStep.signInStep).toBe('CONTINUE_SIGN_IN_WITH_TOTP_SETUP');
      const details = (challenged.nextStep as { totpSetupDetails: { sharedSecret: string } }).totpSetupDetails;
      expect(details.sharedSecret).toMatch(/^[A-Z2-7]{32}$/);
      const done = await confirmSignIn({ challengeResponse: code(details.sharedSecret) });
      expect(done).toEqual({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
      expect(await adminStatus(required, (await fetchAuthSession()).tokens!.accessToken.toString())).toBe(200);
      expect(await fetchMFAPreference()).toMatchObject({ enabled: ['TOTP'], preferred: 'TOTP' });
      await signOut();
      // From then on every sign-in asks for a code.
      expect((await signIn({ username: 'cleo.new', password: PASSWORD })).nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
      expect((await confirmSignIn({ challengeResponse: code(details.sharedSecret) })).isSignedIn).toBe(true);
      await signOut();
    });

    it('the AWS SDK v3: InitiateAuth (both flows), RespondToAuthChallenge, GetUser, refresh, TOTP, sign-out, Cognito’s errors', async () => {
      const ClientId = optional.identity.clientId;
      // USER_SRP_AUTH, the client's half computed as Amplify does (tests/support/srp-client.ts).
      const srp = srpClient(optional.identity.userPoolId);
      const init = await sdk.send(new InitiateAuthCommand({ ClientId, AuthFlow: 'USER_SRP_AUTH', AuthParameters: { USERNAME: 'sdk.user', SRP_A: srp.SRP_A } }));
      expect(init.ChallengeName).toBe('PASSWORD_VERIFIER');
      expect(Object.keys(init.ChallengeParameters ?? {}).sort()).toEqual(['SALT', 'SECRET_BLOCK', 'SRP_B', 'USERNAME', 'USER_ID_FOR_SRP']);
      const signedIn = await sdk.send(
        new RespondToAuthChallengeCommand({
          ClientId,
          ChallengeName: 'PASSWORD_VERIFIER',
          ChallengeResponses: srp.answer(init.ChallengeParameters!, PASSWORD),
        }),
      );
      const tokens = signedIn.AuthenticationResult!;
      expect(tokens).toMatchObject({ TokenType: 'Bearer', ExpiresIn: 3600 });
      const user = await sdk.send(new GetUserCommand({ AccessToken: tokens.AccessToken }));
      expect(user.Username).toBe('sdk.user');
      expect(user.UserAttributes).toContainEqual({ Name: 'email', Value: 'sdk@firm.test' });
      expect(user.UserMFASettingList ?? []).toEqual([]);

      const viaRefresh = await sdk.send(new GetTokensFromRefreshTokenCommand({ ClientId, RefreshToken: tokens.RefreshToken }));
      expect(viaRefresh.AuthenticationResult?.AccessToken).toBeTruthy();
      const viaInitiate = await sdk.send(
        new InitiateAuthCommand({ ClientId, AuthFlow: 'REFRESH_TOKEN_AUTH', AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken! } }),
      );
      expect(viaInitiate.AuthenticationResult?.AccessToken).toBeTruthy();

      // TOTP through the access token, then the challenge after USER_PASSWORD_AUTH.
      const { SecretCode } = await sdk.send(new AssociateSoftwareTokenCommand({ AccessToken: tokens.AccessToken }));
      await expect(sdk.send(new VerifySoftwareTokenCommand({ AccessToken: tokens.AccessToken, UserCode: '12345x' }))).rejects.toMatchObject({
        name: 'EnableSoftwareTokenMFAException',
      });
      expect(await sdk.send(new VerifySoftwareTokenCommand({ AccessToken: tokens.AccessToken, UserCode: code(SecretCode!) }))).toMatchObject({
        Status: 'SUCCESS',
      });
      await sdk.send(new SetUserMFAPreferenceCommand({ AccessToken: tokens.AccessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }));
      const withMfa = await sdk.send(new GetUserCommand({ AccessToken: tokens.AccessToken }));
      expect(withMfa).toMatchObject({ UserMFASettingList: ['SOFTWARE_TOKEN_MFA'], PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA' });

      const password = await sdk.send(
        new InitiateAuthCommand({ ClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'sdk.user', PASSWORD } }),
      );
      expect(password).toMatchObject({ ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: expect.any(String) });
      expect(password.AuthenticationResult).toBeUndefined();
      const wrong = sdk.send(
        new RespondToAuthChallengeCommand({
          ClientId,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: password.Session,
          ChallengeResponses: { USERNAME: 'sdk.user', SOFTWARE_TOKEN_MFA_CODE: '12345x' },
        }),
      );
      await expect(wrong).rejects.toBeInstanceOf(CodeMismatchException);
      const mfa = await sdk.send(
        new RespondToAuthChallengeCommand({
          ClientId,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: password.Session,
          ChallengeResponses: { USERNAME: 'sdk.user', SOFTWARE_TOKEN_MFA_CODE: code(SecretCode!) },
        }),
      );
      const second = mfa.AuthenticationResult!;
      expect(second.AccessToken).toBeTruthy();

      // Sign-out: RevokeToken ends one session, GlobalSignOut every one; Cognito's exception classes come back.
      await sdk.send(new RevokeTokenCommand({ ClientId, Token: tokens.RefreshToken }));
      const revoked = sdk.send(new GetUserCommand({ AccessToken: tokens.AccessToken }));
      await expect(revoked).rejects.toBeInstanceOf(NotAuthorizedException);
      await expect(revoked).rejects.toMatchObject({ $metadata: { httpStatusCode: 400 } });
      await sdk.send(new GlobalSignOutCommand({ AccessToken: second.AccessToken }));
      await expect(sdk.send(new GetUserCommand({ AccessToken: second.AccessToken }))).rejects.toBeInstanceOf(NotAuthorizedException);
      await expect(
        sdk.send(new InitiateAuthCommand({ ClientId: 'not-the-client', AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'sdk.user', PASSWORD } })),
      ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    });
  });
}
