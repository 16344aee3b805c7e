/**
 * The embedded identity service, attacked as someone with the source code and no account would
 * (docs/decisions/014): every attack of the review is a test here, on SQLite and PostgreSQL, through
 * the same-origin gateway aws-amplify uses, against the real service and the admin API's own check.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../api/app.ts';
import { defaultRateRules } from '../../api/http/rate-limit.ts';
import { parseAllowlist } from '../../api/auth/admin-allowlist.ts';
import { cognitoGetUser, createCognitoVerifier } from '../../api/auth/cognito-verifier.ts';
import { createSecretBox } from '../../api/crypto/secret-box.ts';
import { startEmbeddedIdentity, THROTTLE, type EmbeddedIdentity } from '../../api/identity/embedded-identity.ts';
import { startIdentity } from '../../api/identity/identity.ts';
import { identityRepository } from '../../api/identity/identity.repository.ts';
import { resealSigningKeys } from '../../api/identity/signing-keys.ts';
import { createDevOutbox } from '../../api/mail/dev-outbox.ts';
import { dialects, createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { testDeps } from '../support/test-deps.ts';
import { randomBytes } from 'node:crypto';

const PASSWORD = 'Harbor-Lantern-Quiet-42';
const allowlist = parseAllowlist('@firm.test, partner@elsewhere.test');

for (const dialect of dialects) {
  describe(`identity: the embedded service under attack [${dialect}]`, () => {
    let database: TestDatabase;
    let identity: EmbeddedIdentity;
    let app: App;
    let offset = 0;
    /** Set to stop the clock: guesses made over real seconds would otherwise earn spaced tries. */
    let frozenAt: number | null = null;
    const clock = { now: () => new Date((frozenAt ?? Date.now()) + offset) };
    const codes = new Map<string, string[]>();
    const mail: { to: string; text: string }[] = [];
    const oldKey = randomBytes(32);
    const secrets = createSecretBox(oldKey);
    let addressCounter = 0;
    /** A fresh client address per test, so the per-address throttle of one test does not meet another's. */
    let address = '198.51.100.1';

    async function gateway(action: string, body: unknown, from = address) {
      const res = await app.request(
        '/api/identity/cognito',
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${action}` },
          body: JSON.stringify(body),
        },
        { incoming: { socket: { remoteAddress: from } } },
      );
      // Codes are stored and mailed after the answer (decision 039): wait for them, as a reader of the mail would.
      await identity.settled();
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    }
    const adminCall = async (token?: string) => {
      const res = await app.request('/api/admin/testimonials', { headers: token ? { authorization: `Bearer ${token}` } : {} });
      return res.status;
    };
    const signIn = (username: string, password = PASSWORD, from = address) =>
      gateway(
        'InitiateAuth',
        { ClientId: identity.clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: username, PASSWORD: password } },
        from,
      );
    async function tokensOf(username: string, password = PASSWORD) {
      const res = await signIn(username, password);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.AuthenticationResult as { AccessToken: string; IdToken: string; RefreshToken: string };
    }
    async function signUpAndConfirm(username: string, email: string) {
      const up = await gateway('SignUp', {
        ClientId: identity.clientId,
        Username: username,
        Password: PASSWORD,
        UserAttributes: [{ Name: 'email', Value: email }],
      });
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      const confirm = await gateway('ConfirmSignUp', { ClientId: identity.clientId, Username: username, ConfirmationCode: codes.get(username)!.at(-1) });
      expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
    }
    const userRow = async (username: string) => {
      const { db, t } = database;
      const rows = await db.select().from(t.identityUsers);
      return rows.find((r) => r.username === username)!;
    };

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      identity = await startEmbeddedIdentity({
        database,
        secrets,
        clock,
        allowlist,
        sendCode: (m) => {
          codes.set(m.username, [...(codes.get(m.username) ?? []), m.code]);
          mail.push({ to: m.to, text: m.text });
        },
      });
      app = createApp(
        testDeps(database, {
          clock,
          verifier: identity.verifier(allowlist),
          identity: { userPoolId: identity.userPoolId, clientId: identity.clientId, region: null, embedded: true },
          embeddedIdentity: identity,
        }),
      );
      await identity.admins.create({ username: 'ana.partner', email: 'ana@firm.test', password: PASSWORD });
    });
    afterAll(async () => {
      await database?.drop();
    });
    beforeEach(() => {
      address = `198.51.100.${++addressCounter}`;
    });

    it('signs in, calls the admin API, refreshes, and says who is signed in', async () => {
      const tokens = await tokensOf('ana.partner');
      expect(await adminCall(tokens.AccessToken)).toBe(200);
      const session = await app.request('/api/admin/session', { headers: { authorization: `Bearer ${tokens.AccessToken}` } });
      expect(await session.json()).toEqual({ username: 'ana.partner', email: 'ana@firm.test', groups: ['admin'] });
      const refreshed = await gateway('GetTokensFromRefreshToken', { ClientId: identity.clientId, RefreshToken: tokens.RefreshToken });
      expect(refreshed.status).toBe(200);
      expect(await adminCall(refreshed.body.AuthenticationResult.AccessToken)).toBe(200);
      const viaInitiate = await gateway('InitiateAuth', {
        ClientId: identity.clientId,
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken },
      });
      expect(viaInitiate.status).toBe(200);
      // Cognito's lifetimes: an hour for access tokens.
      const claims = JSON.parse(Buffer.from(tokens.AccessToken.split('.')[1]!, 'base64url').toString());
      expect(claims.exp - claims.iat).toBe(3600);
      expect(claims.origin_jti).toMatch(/^[0-9a-f-]{36}$/);
    });

    describe('1. forged tokens', () => {
      it('refuses a token signed with any key but this install’s own, whatever it claims', async () => {
        // What the review did with the key shipped inside cognito-local: any key not generated here.
        const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
        const kidOfThisInstall = (await identity.jwks()).keys[0]!.kid!;
        for (const kid of ['CognitoLocal', kidOfThisInstall]) {
          const forged = await new SignJWT({
            sub: 'x',
            token_use: 'access',
            client_id: identity.clientId,
            username: 'attacker',
            'cognito:groups': ['admin'],
            origin_jti: crypto.randomUUID(),
          })
            .setProtectedHeader({ alg: 'RS256', kid })
            .setIssuer(identity.issuer)
            .setIssuedAt()
            .setExpirationTime('1h')
            .sign(privateKey);
          expect(await adminCall(forged)).toBe(401);
          expect((await gateway('GetUser', { AccessToken: forged })).status).toBe(400);
        }
        // An HS256 token "signed" with the public key, and an unsigned one.
        const pub = JSON.stringify(await exportJWK(publicKey));
        const hs = await new SignJWT({ sub: 'x', token_use: 'access', client_id: identity.clientId, 'cognito:groups': ['admin'] })
          .setProtectedHeader({ alg: 'HS256', kid: kidOfThisInstall })
          .setIssuer(identity.issuer)
          .setExpirationTime('1h')
          .sign(new TextEncoder().encode(pub));
        expect(await adminCall(hs)).toBe(401);
        const real = await tokensOf('ana.partner');
        const [, payload] = real.AccessToken.split('.');
        const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
        expect(await adminCall(none)).toBe(401);
      });

      it('refuses a real token whose payload was edited to claim the admin group, and ID tokens', async () => {
        await identity.admins.create({ username: 'clerk', email: 'clerk@outside.test', password: PASSWORD });
        await identity.admins.remove('clerk');
        const tokens = await tokensOf('clerk');
        expect(await adminCall(tokens.AccessToken)).toBe(403);
        const [h, p, s] = tokens.AccessToken.split('.');
        const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
        const edited = `${h}.${Buffer.from(JSON.stringify({ ...claims, 'cognito:groups': ['admin'] })).toString('base64url')}.${s}`;
        expect(await adminCall(edited)).toBe(401);
        expect(await adminCall(tokens.IdToken)).toBe(401);
      });

      it('keeps its private signing key sealed in the database, and publishes only public keys', async () => {
        const { db, t } = database;
        const [key] = await db.select().from(t.identitySigningKeys);
        expect(key!.privateKey.startsWith('sealed:v1.')).toBe(true);
        expect(key!.privateKey).not.toContain('PRIVATE KEY');
        const jwks = await (await app.request('/api/identity/jwks.json')).json();
        for (const k of jwks.keys) expect(Object.keys(k).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
      });

      it('secrets:rotate re-seals the signing keys under a new SECRETS_KEY, and sign-in keeps working on it alone', async () => {
        const newKey = randomBytes(32);
        const repo = identityRepository(database);
        expect(await resealSigningKeys(repo, createSecretBox(newKey, [oldKey]))).toBeGreaterThan(0);
        const { db, t } = database;
        for (const key of await db.select().from(t.identitySigningKeys)) expect(createSecretBox(newKey).isCurrent(key.privateKey)).toBe(true);
        const onNewKey = await startEmbeddedIdentity({ database, secrets: createSecretBox(newKey), clock, allowlist, sendCode: () => {} });
        const res = await onNewKey.call(
          'InitiateAuth',
          { ClientId: identity.clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'ana.partner', PASSWORD } },
          { clientAddress: address },
        );
        expect(res.status).toBe(200);
        await resealSigningKeys(repo, createSecretBox(oldKey, [newKey])); // back, for the tests after this one
      });

      it('rotates keys: old tokens live out their hour; with --revoke-old they die at once, refresh still works', async () => {
        const before = await tokensOf('ana.partner');
        await identity.rotateKeys();
        expect(await adminCall(before.AccessToken)).toBe(200);
        const after = await tokensOf('ana.partner');
        expect(JSON.parse(Buffer.from(after.AccessToken.split('.')[0]!, 'base64url').toString()).kid).not.toBe(
          JSON.parse(Buffer.from(before.AccessToken.split('.')[0]!, 'base64url').toString()).kid,
        );
        await identity.rotateKeys({ revokeOld: true });
        offset += 11_000; // past the key-set reload spacing
        expect(await adminCall(before.AccessToken)).toBe(401);
        expect(await adminCall(after.AccessToken)).toBe(401);
        const refreshed = await gateway('GetTokensFromRefreshToken', { ClientId: identity.clientId, RefreshToken: after.RefreshToken });
        expect(await adminCall(refreshed.body.AuthenticationResult.AccessToken)).toBe(200);
      });
    });

    describe('2. the gateway hands out nothing without the secret it asks for', () => {
      it('RespondToAuthChallenge with an invented session returns no tokens, and changes no password', async () => {
        for (const ChallengeName of ['SMS_MFA', 'SOFTWARE_TOKEN_MFA', 'NEW_PASSWORD_REQUIRED', 'CUSTOM_CHALLENGE', 'SELECT_MFA_TYPE']) {
          const res = await gateway('RespondToAuthChallenge', {
            ClientId: identity.clientId,
            ChallengeName,
            Session: 'invented-session',
            ChallengeResponses: { USERNAME: 'ana.partner', NEW_PASSWORD: 'Attacker-Chosen-99', SMS_MFA_CODE: '' },
          });
          expect(res.status, ChallengeName).toBe(400);
          expect(JSON.stringify(res.body)).not.toContain('AccessToken');
        }
        expect((await signIn('ana.partner', 'Attacker-Chosen-99')).status).toBe(400);
        expect((await signIn('ana.partner')).status).toBe(200);
      });

      it('ConfirmForgotPassword without a code, or with a wrong one, resets nothing', async () => {
        const noCode = await gateway('ConfirmForgotPassword', { ClientId: identity.clientId, Username: 'ana.partner', Password: 'Attacker-Chosen-99' });
        expect(noCode.status).toBe(400);
        const empty = await gateway('ConfirmForgotPassword', {
          ClientId: identity.clientId,
          Username: 'ana.partner',
          ConfirmationCode: '',
          Password: 'Attacker-Chosen-99',
        });
        expect(empty.status).toBe(400);
        const wrong = await gateway('ConfirmForgotPassword', {
          ClientId: identity.clientId,
          Username: 'ana.partner',
          ConfirmationCode: '123456',
          Password: 'Attacker-Chosen-99',
        });
        expect(wrong.body.__type).toBe('CodeMismatchException');
        expect((await signIn('ana.partner', 'Attacker-Chosen-99')).status).toBe(400);
      });

      it('SignUp cannot set email_verified or any attribute but email, nor send email twice', async () => {
        for (const extra of [
          { Name: 'email_verified', Value: 'true' },
          { Name: 'custom:role', Value: 'admin' },
          { Name: 'cognito:groups', Value: 'admin' },
          { Name: 'sub', Value: 'x' },
        ]) {
          const res = await gateway('SignUp', {
            ClientId: identity.clientId,
            Username: `sneaky-${extra.Name.replace(/\W/g, '')}`,
            Password: PASSWORD,
            UserAttributes: [{ Name: 'email', Value: 'sneaky@firm.test' }, extra],
          });
          expect(res.status, extra.Name).toBe(400);
        }
        const twice = await gateway('SignUp', {
          ClientId: identity.clientId,
          Username: 'two-emails',
          Password: PASSWORD,
          UserAttributes: [
            { Name: 'email', Value: 'ok@firm.test' },
            { Name: 'email', Value: 'attacker@evil.test' },
          ],
        });
        expect(twice.status).toBe(400);
        const { db, t } = database;
        const users = await db.select().from(t.identityUsers);
        expect(users.map((u) => u.username).filter((n) => n.startsWith('sneaky') || n === 'two-emails')).toEqual([]);
      });

      it('a signed-up user is not verified until the delivered code is given, and then asks to be an admin (ADMIN_EMAILS makes no admin)', async () => {
        const up = await gateway('SignUp', {
          ClientId: identity.clientId,
          Username: 'bea.associate',
          Password: PASSWORD,
          UserAttributes: [{ Name: 'email', Value: 'bea@firm.test' }],
        });
        expect(up.body).toMatchObject({ UserConfirmed: false, CodeDeliveryDetails: { Destination: 'b***@f***' } });
        expect((await signIn('bea.associate')).body.__type).toBe('UserNotConfirmedException');
        expect((await userRow('bea.associate')).emailVerified).toBe(false);
        await gateway('ConfirmSignUp', { ClientId: identity.clientId, Username: 'bea.associate', ConfirmationCode: codes.get('bea.associate')!.at(-1) });
        const tokens = await tokensOf('bea.associate');
        // A request, until an admin approves it (docs/decisions/041).
        expect(await adminCall(tokens.AccessToken)).toBe(403);
        expect((await userRow('bea.associate')).adminRequestedAt).toBeInstanceOf(Date);
        expect(await identity.admins.approve('bea.associate')).toBe('approved');
        expect(await adminCall(tokens.AccessToken)).toBe(200);
        // Single use: the same code again is refused.
        const again = await gateway('ConfirmSignUp', {
          ClientId: identity.clientId,
          Username: 'bea.associate',
          ConfirmationCode: codes.get('bea.associate')!.at(-1),
        });
        expect(again.body.__type).toBe('CodeMismatchException');
      });

      it('GetUser refuses an unsigned (alg none) token and tells it nothing', async () => {
        const real = await tokensOf('ana.partner');
        const [, payload] = real.AccessToken.split('.');
        const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
        const res = await gateway('GetUser', { AccessToken: none });
        expect(res.status).toBe(400);
        expect(JSON.stringify(res.body)).not.toContain('ana@firm.test');
        expect((await gateway('GetUser', { AccessToken: real.AccessToken })).body.UserAttributes).toContainEqual({ Name: 'email', Value: 'ana@firm.test' });
      });

      it('refuses the admin actions and anything else it does not offer', async () => {
        for (const action of [
          'AdminCreateUser',
          'AdminAddUserToGroup',
          'CreateGroup',
          'ListUsers',
          'AdminSetUserPassword',
          'AdminInitiateAuth',
          'UpdateUserAttributes',
        ]) {
          const res = await gateway(action, { UserPoolId: identity.userPoolId, Username: 'x', GroupName: 'admin' });
          expect(res.status, action).toBe(400);
        }
      });
    });

    describe('3. guessing is stopped, and existence is not revealed', () => {
      it('200 wrong passwords, then the right one: refused while locked; allowed again once the delay has passed', async () => {
        await identity.admins.create({ username: 'target', email: 'target@firm.test', password: PASSWORD });
        frozenAt = Date.now();
        const answers = new Map<string, number>();
        for (let i = 0; i < 200; i++) {
          const res = await signIn('target', `Wrong-Guess-${i}-xyz`, `203.0.113.${i % 250}`); // a botnet: a new address each time
          answers.set(res.body.message, (answers.get(res.body.message) ?? 0) + 1);
        }
        // Only the free attempts and the spaced ones were checked; the rest were refused unchecked.
        expect(answers.get('Incorrect username or password.')).toBeLessThanOrEqual(THROTTLE.user.free + 1);
        expect(answers.get('Password attempts exceeded')).toBeGreaterThanOrEqual(200 - THROTTLE.user.free - 1);
        expect((await signIn('target')).body.message).toBe('Password attempts exceeded');
        offset += THROTTLE.user.maxDelayMs + 1000;
        expect((await signIn('target')).status).toBe(200);
        frozenAt = null;
      });

      it('50 guesses at once get no more checks than the free attempts and one spaced try', async () => {
        await identity.admins.create({ username: 'burst.target', email: 'burst@firm.test', password: PASSWORD });
        // "At once": the clock stands still, so a slow machine's seconds do not earn a second spaced try.
        frozenAt = Date.now();
        const results = await Promise.all(Array.from({ length: 50 }, (_, i) => signIn('burst.target', `Parallel-Guess-${i}`, `192.0.2.${i}`)));
        frozenAt = null;
        const checked = results.filter((r) => r.body.message === 'Incorrect username or password.').length;
        expect(checked).toBeLessThanOrEqual(THROTTLE.user.free + 1);
        offset += THROTTLE.user.maxDelayMs + 1000;
      });

      it('one address cannot sign up (and have codes mailed) without end: RATE_LIMIT_SIGN_UP, in Cognito’s words', async () => {
        const limited = createApp({
          ...testDeps(database, {
            clock,
            verifier: identity.verifier(allowlist),
            identity: { userPoolId: identity.userPoolId, clientId: identity.clientId, region: null, embedded: true },
            embeddedIdentity: identity,
          }),
          rateLimits: { rules: defaultRateRules, trustedProxies: [] },
        });
        const signUp = async (i: number) => {
          const res = await limited.request(
            '/api/identity/cognito',
            {
              method: 'POST',
              headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.SignUp' },
              body: JSON.stringify({
                ClientId: identity.clientId,
                Username: `flood-${i}`,
                Password: PASSWORD,
                UserAttributes: [{ Name: 'email', Value: `flood-${i}@firm.test` }],
              }),
            },
            { incoming: { socket: { remoteAddress: '203.0.113.248' } } },
          );
          return { status: res.status, body: (await res.json()) as any };
        };
        const max = defaultRateRules.signUp[0]!.max;
        for (let i = 0; i < max; i++) expect((await signUp(i)).status).toBe(200);
        const refused = await signUp(max);
        expect(refused).toMatchObject({ status: 400, body: { __type: 'LimitExceededException' } });
        expect(await userRow(`flood-${max}`)).toBeUndefined();
        // Other actions from that address are not affected by the sign-up limit.
        expect((await gateway('ForgotPassword', { ClientId: identity.clientId, Username: 'ana.partner' }, '203.0.113.248')).status).toBe(200);
      });

      it('one address guessing many usernames is throttled too', async () => {
        // The guesses come faster than the doubling delays: time stands still while they are made (on a
        // loaded machine each sign-in's password hash took long enough for a delay to pass).
        frozenAt = Date.now();
        try {
          const from = '203.0.113.250';
          const results = [];
          for (let i = 0; i < THROTTLE.address.free + 10; i++) results.push(await signIn(`someone-${i}`, 'Not-The-Password-1', from));
          expect(results.at(-1)!.body.message).toBe('Password attempts exceeded');
        } finally {
          frozenAt = null;
        }
        offset += THROTTLE.address.maxDelayMs + 1000;
      });

      it('counts failures, not sign-ins: an office signing in all day from one address is never locked out', async () => {
        const office = '203.0.113.249';
        for (let i = 0; i < THROTTLE.address.free + 10; i++) expect((await signIn('ana.partner', PASSWORD, office)).status).toBe(200);
        expect((await signIn('ana.partner', 'Not-The-Password-1', office)).body.message).toBe('Incorrect username or password.');
      });

      it('200 wrong reset codes, then the real one: the code is spent after 5 tries', async () => {
        await identity.admins.create({ username: 'reset.target', email: 'reset@firm.test', password: PASSWORD });
        await gateway('ForgotPassword', { ClientId: identity.clientId, Username: 'reset.target' });
        const real = codes.get('reset.target')!.at(-1)!;
        for (let i = 0; i < 200; i++) {
          const guess = String(i).padStart(6, '0');
          if (guess === real) continue;
          await gateway(
            'ConfirmForgotPassword',
            { ClientId: identity.clientId, Username: 'reset.target', ConfirmationCode: guess, Password: 'Attacker-Chosen-99' },
            `203.0.113.${i % 250}`,
          );
        }
        const withReal = await gateway('ConfirmForgotPassword', {
          ClientId: identity.clientId,
          Username: 'reset.target',
          ConfirmationCode: real,
          Password: 'Attacker-Chosen-99',
        });
        expect(withReal.status).toBe(400);
        expect((await signIn('reset.target', 'Attacker-Chosen-99')).status).toBe(400);
        // A fresh code works, once.
        await gateway('ForgotPassword', { ClientId: identity.clientId, Username: 'reset.target' });
        const fresh = codes.get('reset.target')!.at(-1)!;
        const ok = await gateway('ConfirmForgotPassword', {
          ClientId: identity.clientId,
          Username: 'reset.target',
          ConfirmationCode: fresh,
          Password: 'New-Harbor-Password-7',
        });
        expect(ok.status, JSON.stringify(ok.body)).toBe(200);
        expect((await signIn('reset.target', 'New-Harbor-Password-7')).status).toBe(200);
      });

      it('a reset code expires after an hour', async () => {
        await identity.admins.create({ username: 'slow.resetter', email: 'slow@firm.test', password: PASSWORD });
        await gateway('ForgotPassword', { ClientId: identity.clientId, Username: 'slow.resetter' });
        offset += 3600_000 + 1000;
        const res = await gateway('ConfirmForgotPassword', {
          ClientId: identity.clientId,
          Username: 'slow.resetter',
          ConfirmationCode: codes.get('slow.resetter')!.at(-1),
          Password: 'New-Harbor-Password-7',
        });
        expect(res.body.__type).toBe('ExpiredCodeException');
      });

      it('answers an unknown username exactly as a real one, in every action that names a user', async () => {
        await identity.admins.create({ username: 'known.user', email: 'known@firm.test', password: PASSWORD });
        const shape = (body: any) => JSON.stringify(body).replace(/"Destination":"\w\*\*\*@\w\*\*\*"/, '"Destination":"x***@x***"');
        const pairs: [string, (u: string) => unknown][] = [
          [
            'InitiateAuth',
            (u) => ({ ClientId: identity.clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: u, PASSWORD: 'Wrong-Password-123' } }),
          ],
          ['ForgotPassword', (u) => ({ ClientId: identity.clientId, Username: u })],
          ['ConfirmForgotPassword', (u) => ({ ClientId: identity.clientId, Username: u, ConfirmationCode: '000000', Password: 'Another-Password-55' })],
          ['ConfirmSignUp', (u) => ({ ClientId: identity.clientId, Username: u, ConfirmationCode: '000000' })],
          ['ResendConfirmationCode', (u) => ({ ClientId: identity.clientId, Username: u })],
        ];
        for (const [action, body] of pairs) {
          const real = await gateway(action, body('known.user'));
          const unknown = await gateway(action, body('nobody.here'));
          expect(unknown.status, action).toBe(real.status);
          expect(shape(unknown.body), action).toBe(shape(real.body));
        }
        const forgot = await gateway('ForgotPassword', { ClientId: identity.clientId, Username: 'known.user' });
        expect(JSON.stringify(forgot.body)).not.toContain('known@firm.test');
        expect(JSON.stringify(forgot.body)).not.toContain('firm.test');
      });

      it('repeating an action tells a real username from an unknown one in no way: destinations, send limits, tries, password rules', async () => {
        await identity.admins.create({ username: 'quiet.real', email: 'zelda.quiet@firm.test', password: PASSWORD });
        const up = await gateway('SignUp', {
          ClientId: identity.clientId,
          Username: 'pending.real',
          Password: PASSWORD,
          UserAttributes: [{ Name: 'email', Value: 'pending@firm.test' }],
        });
        expect(up.status).toBe(200);
        const answer = (r: { status: number; body: any }) => `${r.status} ${r.body?.__type ?? 'ok'}`;
        const destination = (r: { body: any }) => r.body?.CodeDeliveryDetails?.Destination as string;

        // a. The same destination from ForgotPassword and ResendConfirmationCode, real or not, and never the real address's.
        for (const username of ['quiet.real', 'nobody.quiet']) {
          const forgot = await gateway('ForgotPassword', { ClientId: identity.clientId, Username: username });
          const resend = await gateway('ResendConfirmationCode', { ClientId: identity.clientId, Username: username });
          expect(destination(forgot), username).toBe(destination(resend));
        }

        // b. The limit on code sends answers the same, call by call.
        const sends = async (username: string) => {
          const seen: string[] = [];
          for (let i = 0; i < 8; i++) seen.push(answer(await gateway('ForgotPassword', { ClientId: identity.clientId, Username: username }, `203.0.113.${i}`)));
          return seen;
        };
        await identity.admins.create({ username: 'sends.real', email: 'sends@firm.test', password: PASSWORD });
        const realSends = await sends('sends.real');
        expect(realSends).toContain('400 LimitExceededException');
        expect(await sends('nobody.sends')).toEqual(realSends);

        // c. Tries at a code: the sixth answers the same for a user with a pending code and for an unknown one.
        const tries = async (action: 'ConfirmForgotPassword' | 'ConfirmSignUp', username: string) => {
          const seen: string[] = [];
          for (let i = 0; i < 7; i++)
            seen.push(
              answer(
                await gateway(
                  action,
                  { ClientId: identity.clientId, Username: username, ConfirmationCode: '000000', Password: 'Another-Password-55' },
                  `192.0.2.${i + (action === 'ConfirmSignUp' ? 100 : 0)}`,
                ),
              ),
            );
          return seen;
        };
        const realTries = await tries('ConfirmForgotPassword', 'quiet.real');
        expect(realTries.at(-1)).toBe('400 LimitExceededException');
        expect(await tries('ConfirmForgotPassword', 'nobody.tries')).toEqual(realTries);
        const pendingTries = await tries('ConfirmSignUp', 'pending.real');
        expect(pendingTries.at(-1)).toBe('400 LimitExceededException');
        expect(await tries('ConfirmSignUp', 'nobody.pending')).toEqual(pendingTries);

        // d. A new password naming the address is refused only once the code is right, and the code survives it.
        await identity.admins.create({ username: 'named.real', email: 'yolanda.named@firm.test', password: PASSWORD });
        await gateway('ForgotPassword', { ClientId: identity.clientId, Username: 'named.real' }, '198.18.0.1');
        const probe = (username: string) =>
          gateway('ConfirmForgotPassword', { ClientId: identity.clientId, Username: username, ConfirmationCode: '000000', Password: 'qq-yolanda.named-harp' });
        expect(answer(await probe('named.real'))).toBe(answer(await probe('nobody.named')));
        expect((await probe('named.real')).body.__type).toBe('CodeMismatchException');
        const code = codes.get('named.real')!.at(-1);
        const naming = await gateway('ConfirmForgotPassword', {
          ClientId: identity.clientId,
          Username: 'named.real',
          ConfirmationCode: code,
          Password: 'qq-yolanda.named-harp',
        });
        expect(naming.body.__type).toBe('InvalidPasswordException');
        const good = await gateway('ConfirmForgotPassword', {
          ClientId: identity.clientId,
          Username: 'named.real',
          ConfirmationCode: code,
          Password: 'New-Harbor-Password-7',
        });
        expect(good.status, JSON.stringify(good.body)).toBe(200);
      });

      it('refuses short, common and name-based passwords in every flow that sets one', async () => {
        for (const weak of ['a', 'short7', 'password1', 'iloveyou', 'Password123', '12345678']) {
          const res = await gateway('SignUp', {
            ClientId: identity.clientId,
            Username: 'weak.pass',
            Password: weak,
            UserAttributes: [{ Name: 'email', Value: 'weak@firm.test' }],
          });
          expect(res.body.__type, weak).toBe('InvalidPasswordException');
        }
        const named = await gateway('SignUp', {
          ClientId: identity.clientId,
          Username: 'maria.lopez',
          Password: 'maria.lopez2026',
          UserAttributes: [{ Name: 'email', Value: 'm@firm.test' }],
        });
        expect(named.body.__type).toBe('InvalidPasswordException');
        await expect(identity.admins.create({ username: 'weak.admin', email: 'w@firm.test', password: 'password' })).rejects.toThrow(/policy/);
        const tokens = await tokensOf('ana.partner');
        const change = await gateway('ChangePassword', { AccessToken: tokens.AccessToken, PreviousPassword: PASSWORD, ProposedPassword: 'a' });
        expect(change.body.__type).toBe('InvalidPasswordException');
      });
    });

    describe('4. sign-out signs out', () => {
      it('a refresh token with anything added is not the one handed out: it neither refreshes nor revokes', async () => {
        const tokens = await tokensOf('ana.partner');
        for (const padded of [`${tokens.RefreshToken}.`, `${tokens.RefreshToken}.x`]) {
          const refreshed = await gateway('InitiateAuth', {
            ClientId: identity.clientId,
            AuthFlow: 'REFRESH_TOKEN_AUTH',
            AuthParameters: { REFRESH_TOKEN: padded },
          });
          expect(refreshed.body.__type).toBe('NotAuthorizedException');
          await gateway('RevokeToken', { ClientId: identity.clientId, Token: padded });
        }
        expect(await adminCall(tokens.AccessToken)).toBe(200);
      });

      it('after RevokeToken the access token and the refresh token are refused at once', async () => {
        const tokens = await tokensOf('ana.partner');
        expect(await adminCall(tokens.AccessToken)).toBe(200);
        expect((await gateway('RevokeToken', { ClientId: identity.clientId, Token: tokens.RefreshToken })).status).toBe(200);
        expect(await adminCall(tokens.AccessToken)).toBe(401);
        expect((await gateway('GetUser', { AccessToken: tokens.AccessToken })).body.message).toBe('Access Token has been revoked');
        expect((await gateway('GetTokensFromRefreshToken', { ClientId: identity.clientId, RefreshToken: tokens.RefreshToken })).status).toBe(400);
      });

      it('GlobalSignOut ends every session of the user, and only theirs', async () => {
        const a = await tokensOf('ana.partner');
        const b = await tokensOf('ana.partner');
        await identity.admins.create({ username: 'other.admin', email: 'other@firm.test', password: PASSWORD });
        const other = await tokensOf('other.admin');
        expect((await gateway('GlobalSignOut', { AccessToken: a.AccessToken })).status).toBe(200);
        expect(await adminCall(a.AccessToken)).toBe(401);
        expect(await adminCall(b.AccessToken)).toBe(401);
        expect(await adminCall(other.AccessToken)).toBe(200);
      });

      it('admin:remove takes effect on the next call; --disable also stops sign-in', async () => {
        await identity.admins.create({ username: 'leaving', email: 'leaving@outside.test', password: PASSWORD });
        const tokens = await tokensOf('leaving');
        expect(await adminCall(tokens.AccessToken)).toBe(200);
        await identity.admins.remove('leaving');
        expect(await adminCall(tokens.AccessToken)).toBe(401);
        const again = await tokensOf('leaving');
        expect(await adminCall(again.AccessToken)).toBe(403);
        await identity.admins.remove('leaving', { disable: true });
        expect((await signIn('leaving')).body.__type).toBe('NotAuthorizedException');
      });

      it('a password reset signs out every session', async () => {
        await identity.admins.create({ username: 'reset.everywhere', email: 'everywhere@firm.test', password: PASSWORD });
        const tokens = await tokensOf('reset.everywhere');
        await gateway('ForgotPassword', { ClientId: identity.clientId, Username: 'reset.everywhere' });
        await gateway('ConfirmForgotPassword', {
          ClientId: identity.clientId,
          Username: 'reset.everywhere',
          ConfirmationCode: codes.get('reset.everywhere')!.at(-1),
          Password: 'Fresh-Harbor-Password-8',
        });
        expect(await adminCall(tokens.AccessToken)).toBe(401);
      });
    });

    describe('6. credentials at rest', () => {
      it('keeps no password, code or refresh token in the clear', async () => {
        const tokens = await tokensOf('ana.partner');
        await gateway('ForgotPassword', { ClientId: identity.clientId, Username: 'ana.partner' });
        const code = codes.get('ana.partner')!.at(-1)!;
        const { db, t } = database;
        const dump = JSON.stringify([
          await db.select().from(t.identityUsers),
          await db.select().from(t.identityCodes),
          await db.select().from(t.identitySessions),
          await db.select().from(t.identitySigningKeys),
        ]);
        expect(dump).not.toContain(PASSWORD);
        expect(dump).not.toContain(code);
        expect(dump).not.toContain(tokens.RefreshToken.split('.')[1]);
        expect((await userRow('ana.partner')).passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
      });
    });

    describe('7. the allow-list reads whole addresses', () => {
      it('refuses sign-ups from look-alike addresses of a listed domain', async () => {
        for (const email of ['attacker@evil.test@firm.test', '"x@firm.test"@evil.test', 'x@evil.test (x@firm.test)']) {
          const res = await gateway('SignUp', {
            ClientId: identity.clientId,
            Username: `lookalike${email.length}`,
            Password: PASSWORD,
            UserAttributes: [{ Name: 'email', Value: email }],
          });
          expect(res.status, email).toBe(400);
        }
      });
    });

    it('the real-pool verifier (JWKS + GetUser) agrees, and refuses a signed-out token within its liveness window', async () => {
      const server = serve({ fetch: (req) => app.fetch(req, { incoming: { socket: { remoteAddress: '127.0.0.1' } } }), port: 0, hostname: '127.0.0.1' });
      await new Promise((r) => server.once('listening', r));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const verifier = createCognitoVerifier({
          issuer: identity.issuer,
          jwksUrl: `${base}/api/identity/jwks.json`,
          clientId: identity.clientId,
          allowlist,
          getUser: cognitoGetUser(`${base}/api/identity/cognito`),
          livenessMs: 0,
        });
        const tokens = await tokensOf('ana.partner');
        expect(await verifier.verify(tokens.AccessToken)).toMatchObject({ username: 'ana.partner', isAdmin: true });
        await gateway('RevokeToken', { ClientId: identity.clientId, Token: tokens.RefreshToken });
        expect(await verifier.verify(tokens.AccessToken)).toBeNull();
      } finally {
        server.close();
      }
    });

    if (dialect === 'sqlite') {
      it('6. puts codes in the log only in development; the outbox gets them either way', async () => {
        for (const NODE_ENV of ['development', 'production'] as const) {
          const lines: string[] = [];
          const log = { info: (m: string, f?: object) => lines.push(JSON.stringify({ m, ...f })), warn: () => {}, error: () => {} };
          const outbox = createDevOutbox({ database, secrets, clock });
          const started = await startIdentity({ env: { NODE_ENV, ADMIN_EMAILS: '@firm.test' }, database, secrets, clock, log, outbox });
          const res = await started.embedded!.call(
            'SignUp',
            {
              ClientId: started.info.clientId,
              Username: `log-${NODE_ENV}`,
              Password: PASSWORD,
              UserAttributes: [{ Name: 'email', Value: `log-${NODE_ENV}@firm.test` }],
            },
            { clientAddress: address },
          );
          expect(res.status).toBe(200);
          await started.embedded!.settled();
          // Held a moment after the answer (every username answers alike).
          await expect.poll(async () => (await outbox.list()).filter((m) => m.to === `log-${NODE_ENV}@firm.test`).length).toBe(1);
          const code = /\b(\d{6})\b/.exec((await outbox.list()).find((m) => m.to === `log-${NODE_ENV}@firm.test`)!.text)![1]!;
          expect(
            lines.some((l) => l.includes(code)),
            NODE_ENV,
          ).toBe(NODE_ENV === 'development');
        }
      });

      it('5. npm run admin:create adds admins without stripping the others; admin:list, admin:remove and admin:add work', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'firm-admins-'));
        const keyFile = join(dir, 'secrets.key');
        const sqlitePath = join(dir, 'site.db');
        const run = (...args: string[]) =>
          new Promise<{ code: number; out: string }>((resolve) => {
            execFile(
              process.execPath,
              ['scripts/admins.ts', ...args],
              {
                env: {
                  ...process.env,
                  SQLITE_PATH: sqlitePath,
                  SECRETS_KEY_FILE: keyFile,
                  DATABASE_URL: '',
                  COGNITO_USER_POOL_ID: '',
                  OUTBOX_DIR: join(dir, 'outbox'),
                },
              },
              (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr }),
            );
          });
        try {
          expect((await run('create', '--username', 'first.admin', '--email', 'first@outside.test', '--password', PASSWORD)).code).toBe(0);
          expect((await run('create', '--username', 'second.admin', '--email', 'second@outside.test', '--password', PASSWORD)).code).toBe(0);
          const list = await run('list');
          expect(list.out).toMatch(/first\.admin.*admin: admin group/);
          expect(list.out).toMatch(/second\.admin.*admin: admin group/);
          const dup = await run('create', '--username', 'first.admin', '--email', 'first@outside.test', '--password', PASSWORD);
          expect(dup.code).toBe(1);
          expect(dup.out).toContain('already exists');
          expect((await run('remove', '--username', 'second.admin')).code).toBe(0);
          const after = await run('list');
          expect(after.out).toMatch(/first\.admin.*admin: admin group/);
          expect(after.out).toMatch(/second\.admin.*admin: no/);
          expect((await run('add', '--username', 'second.admin')).code).toBe(0);
          expect((await run('list')).out).toMatch(/second\.admin.*admin: admin group/);
          expect(list.out + dup.out + after.out).not.toContain(PASSWORD);
          const { statSync } = await import('node:fs');
          expect(statSync(keyFile).mode & 0o777).toBe(0o600);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }, 150_000); // nine Node processes, each loading the server's modules
    }
  });
}
