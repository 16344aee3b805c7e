/**
 * Properties of the identity gateway under generated calls (fast-check), on both dialects: whatever
 * action and parameters an attacker sends, mixing junk with real values (the client id, a real
 * username, real and altered tokens and codes), the service never fails (5xx), never hands out tokens
 * without the password or a live refresh token, never discloses the e-mail address, never verifies
 * an address or changes a password, and never makes an admin.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../api/app.ts';
import { parseAllowlist } from '../../api/auth/admin-allowlist.ts';
import { createSecretBox } from '../../api/crypto/secret-box.ts';
import { identityActions, startEmbeddedIdentity, type EmbeddedIdentity } from '../../api/identity/embedded-identity.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/test-database.ts';
import { testDeps } from '../support/test-deps.ts';

const PASSWORD = 'Granite-Meadow-Echo-31';
const EMAIL = 'victim@firm.test';
const RUNS = 250;

for (const dialect of dialects) {
  describe(`identity gateway properties [${dialect}]`, () => {
    let database: TestDatabase;
    let identity: EmbeddedIdentity;
    let app: App;
    let realRefresh = '';
    let realAccess = '';

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      identity = await startEmbeddedIdentity({
        database,
        secrets: createSecretBox(randomBytes(32)),
        clock: { now: () => new Date() },
        allowlist: parseAllowlist('@firm.test'),
        sendCode: () => {},
      });
      app = createApp(
        testDeps(database, {
          verifier: identity.verifier(parseAllowlist('@firm.test')),
          identity: { userPoolId: identity.userPoolId, clientId: identity.clientId, region: null, embedded: true },
          embeddedIdentity: identity,
        }),
      );
      await identity.admins.create({ username: 'victim', email: EMAIL, password: PASSWORD });
      const signIn = await identity.call(
        'InitiateAuth',
        { ClientId: identity.clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'victim', PASSWORD } },
        { clientAddress: '10.9.9.9' },
      );
      const result = (signIn.body as any).AuthenticationResult;
      realRefresh = result.RefreshToken;
      realAccess = result.AccessToken;
    }, 60_000);
    afterAll(async () => {
      await database?.drop();
    });

    it('never fails, never hands out tokens or the e-mail without the secret, never verifies or promotes anyone', async () => {
      const { db, t } = database;
      const victim = async () => JSON.stringify((await db.select().from(t.identityUsers)).filter((u) => u.username === 'victim'));
      const before = await victim();
      const alter = (token: string) => fc.constantFrom(token.slice(0, -3) + 'abc', token.split('.').slice(0, 2).join('.') + '.', `x${token}`);
      const value = fc.oneof(
        fc.constantFrom(
          identity.clientId,
          'victim',
          'VICTIM',
          'victim ',
          EMAIL,
          'admin',
          '000000',
          '123456',
          'USER_PASSWORD_AUTH',
          'REFRESH_TOKEN_AUTH',
          'USER_SRP_AUTH',
          'SMS_MFA',
          'NEW_PASSWORD_REQUIRED',
          'true',
        ),
        fc.string({ maxLength: 40 }),
        alter(realRefresh),
        alter(realAccess),
        fc.integer(),
        fc.constant(null),
        fc.boolean(),
      );
      const attributes = fc.array(
        fc.record({
          Name: fc.constantFrom('email', 'email_verified', 'custom:role', 'sub', 'name'),
          Value: fc.oneof(fc.constantFrom('true', 'x@firm.test', EMAIL), fc.string({ maxLength: 20 })),
        }),
        { maxLength: 4 },
      );
      const body = fc.record(
        {
          ClientId: value,
          Username: value,
          Password: fc.oneof(value, fc.constant('Another-Strong-Pass-77')),
          ConfirmationCode: value,
          AccessToken: value,
          RefreshToken: value,
          Token: value,
          Session: value,
          ChallengeName: value,
          AuthFlow: value,
          AuthParameters: fc.dictionary(
            fc.constantFrom('USERNAME', 'PASSWORD', 'REFRESH_TOKEN', 'SRP_A', 'SECRET_HASH'),
            fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('victim', 'Wrong-Password-1', '', identity.clientId)),
          ),
          ChallengeResponses: fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 })),
          UserAttributes: attributes,
          PreviousPassword: value,
          ProposedPassword: value,
        },
        { requiredKeys: [] },
      );
      const action = fc.oneof(
        fc.constantFrom(...identityActions, 'AdminCreateUser', 'AdminSetUserPassword', 'AdminAddUserToGroup', 'UpdateUserAttributes', 'VerifyUserAttribute'),
        fc.string({ maxLength: 30 }),
      );

      await fc.assert(
        fc.asyncProperty(action, body, fc.integer({ min: 1, max: 250 }), async (name, payload, host) => {
          const res = await app.request(
            '/api/identity/cognito',
            {
              method: 'POST',
              headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${name}` },
              body: JSON.stringify(payload),
            },
            { incoming: { socket: { remoteAddress: `203.0.113.${host}` } } },
          );
          expect(res.status === 200 || res.status === 400, `${name} answered ${res.status}`).toBe(true);
          const text = await res.text();
          expect(text).not.toContain(EMAIL);
          if (text.includes('"AccessToken":')) {
            // Only the password (never generated here) or the real, unaltered refresh token gives tokens.
            expect([payload.RefreshToken, payload.AuthParameters?.REFRESH_TOKEN]).toContain(realRefresh);
          }
        }),
        { numRuns: RUNS },
      );
      // The victim is untouched; a generated sign-up may exist, but never verified, confirmed or admin.
      expect(await victim()).toBe(before);
      for (const user of (await db.select().from(t.identityUsers)).filter((u) => u.username !== 'victim')) {
        expect(user).toMatchObject({ status: 'UNCONFIRMED', emailVerified: false, isAdmin: false });
      }
      const check = await app.request('/api/admin/testimonials', { headers: { authorization: `Bearer ${realAccess}` } });
      expect(check.status).toBe(200);
    }, 120_000);
  });
}
