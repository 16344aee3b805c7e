/**
 * The embedded user pool's Cognito compatibility, second factor and key rotation (docs/decisions/040),
 * on SQLite and PostgreSQL, served over real HTTP by two "containers" on one database:
 * - the gateway answers where the AWS SDK posts (the trailing slash), with Cognito's error names;
 * - USER_SRP_AUTH: a wrong password, an unknown user and a user with no verifier yet answer alike; a
 *   claim is single use; the verifier is kept sealed and made at the next password sign-in;
 * - a key revoked with `identity:rotate-keys --revoke-old` from the shell is refused by the second
 *   container once its key set is KEYSET_REFRESH_MS old (its clock moved, no waiting);
 * - TOTP: a code is taken once, wrong codes are bounded per challenge and per user;
 * - ADMIN_MFA=required: an admin without TOTP is refused and sets it up at sign-in (MFA_SETUP);
 * - recovery: another admin's reset (DELETE /api/admin/admins/:username/mfa), admin:reset-mfa;
 * - secrets:rotate re-seals verifiers and TOTP secrets.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAllowlist } from '../../api/auth/admin-allowlist.ts';
import { createSecretBox } from '../../api/crypto/secret-box.ts';
import { CHALLENGE_RULES } from '../../api/identity/challenges.ts';
import { TOTP_PERIOD_SECONDS, totpCode } from '../../api/identity/mfa.ts';
import { KEYSET_REFRESH_MS } from '../../api/identity/signing-keys.ts';
import { rotateSecrets } from '../../scripts/secrets-rotate.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/test-database.ts';
import { movableClock, servePool, type MovableClock, type ServedPool } from '../support/served-identity.ts';
import { srpClient } from '../support/srp-client.ts';

const PASSWORD = 'Willow-Quarry-Signal-73';
const allowlist = parseAllowlist('');
const STEP_MS = TOTP_PERIOD_SECONDS * 1000;

// biome-ignore lint/suspicious/noExplicitAny: Cognito answers of many shapes, read field by field in the tests
type Answer = { status: number; body: any; errorType: string | null };

for (const dialect of dialects) {
  describe(`the embedded pool as Cognito: SRP, TOTP, key rotation [${dialect}]`, () => {
    let database: TestDatabase;
    /** ADMIN_MFA optional, and required: two containers on the same database. */
    let pool: ServedPool;
    let strict: ServedPool;
    const key = randomBytes(32);
    const secrets = createSecretBox(key);
    // One clock for both containers, stopped: guesses must not earn spaced tries as real seconds pass.
    const clock: MovableClock = movableClock();
    /** Each user's TOTP secret, as their authenticator app holds it. */
    const totpSecrets = new Map<string, string>();

    // Each test its own client address: a test's deliberate wrong answers are counted against it alone.
    let testAddress = '198.51.100.1';
    let addresses = 0;
    beforeEach(() => {
      testAddress = `198.51.100.${(++addresses % 250) + 1}`;
    });
    async function call(target: ServedPool, action: string, body: unknown, path = '/api/identity/cognito'): Promise<Answer> {
      const res = await fetch(`${target.base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': `AWSCognitoIdentityProviderService.${action}`,
          'x-forwarded-for': testAddress,
        },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json(), errorType: res.headers.get('x-amzn-errortype') };
    }
    const client = (target = pool) => target.identity.clientId;
    const passwordAuth = (username: string, password = PASSWORD, target = pool) =>
      call(target, 'InitiateAuth', { ClientId: client(target), AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: username, PASSWORD: password } });
    async function tokensOf(username: string, target = pool) {
      const res = await passwordAuth(username, PASSWORD, target);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.AuthenticationResult, JSON.stringify(res.body)).toBeDefined();
      return res.body.AuthenticationResult as { AccessToken: string; RefreshToken: string };
    }
    async function srpSignIn(username: string, password = PASSWORD, target = pool) {
      const srp = srpClient(target.identity.userPoolId);
      const init = await call(target, 'InitiateAuth', {
        ClientId: client(target),
        AuthFlow: 'USER_SRP_AUTH',
        AuthParameters: { USERNAME: username, SRP_A: srp.SRP_A },
      });
      expect(init.status, JSON.stringify(init.body)).toBe(200);
      const responses = srp.answer(init.body.ChallengeParameters, password);
      const answer = await call(target, 'RespondToAuthChallenge', {
        ClientId: client(target),
        ChallengeName: 'PASSWORD_VERIFIER',
        ChallengeResponses: responses,
      });
      return { init: init.body, responses, answer };
    }
    const adminStatus = async (target: ServedPool, token: string) =>
      (await fetch(`${target.base}/api/admin/testimonials`, { headers: { authorization: `Bearer ${token}` } })).status;
    const row = async (username: string) => (await database.db.select().from(database.t.identityUsers)).find((u) => u.username === username)!;
    /** The next step's code: each step is taken once, so a test moves the clock to a fresh one. */
    const nextCode = (secret: string) => {
      clock.advance(STEP_MS);
      return totpCode(secret, clock.now());
    };
    const wrongCode = (secret: string) => (totpCode(secret, clock.now()) === '000000' ? '111111' : '000000');
    /** A user with TOTP set up through the access token and preferred; returns the secret. */
    async function withTotp(username: string) {
      const { AccessToken } = await tokensOf(username);
      const associated = await call(pool, 'AssociateSoftwareToken', { AccessToken });
      const secret = associated.body.SecretCode as string;
      expect((await call(pool, 'VerifySoftwareToken', { AccessToken, UserCode: nextCode(secret) })).body).toEqual({ Status: 'SUCCESS' });
      expect((await call(pool, 'SetUserMFAPreference', { AccessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } })).status).toBe(200);
      totpSecrets.set(username, secret);
      return secret;
    }
    const answerTotp = (session: string, username: string, code: string, target = pool) =>
      call(target, 'RespondToAuthChallenge', {
        ClientId: client(target),
        ChallengeName: 'SOFTWARE_TOKEN_MFA',
        Session: session,
        ChallengeResponses: { USERNAME: username, SOFTWARE_TOKEN_MFA_CODE: code },
      });
    /** A node process running one of the operator's commands on this database, with this install's key. */
    const command = (script: string, ...args: string[]) =>
      new Promise<{ code: number; out: string }>((resolve) => {
        execFile(
          process.execPath,
          [script, ...args],
          {
            env: {
              ...process.env,
              ...(dialect === 'sqlite' ? { SQLITE_PATH: database.location, DATABASE_URL: '' } : { DATABASE_URL: database.location }),
              SECRETS_KEY: key.toString('base64'),
              COGNITO_USER_POOL_ID: '',
              COGNITO_REGION: '',
              COGNITO_CLIENT_ID: '',
              LOG_QUIET: 'true',
            },
          },
          (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr }),
        );
      });

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      clock.freeze();
      pool = await servePool(database, { secrets, allowlist, adminMfa: 'optional', clock });
      strict = await servePool(database, { secrets, allowlist, adminMfa: 'required', clock });
      for (const name of ['ana.partner', 'ben.partner', 'srp.user', 'no.verifier', 'reuse.user', 'guess.user', 'dana.new', 'rotated.user'])
        await pool.identity.admins.create({ username: name, email: `${name}@firm.test`, password: PASSWORD });
      await pool.identity.admins.create({ username: 'clerk', email: 'clerk@firm.test', password: PASSWORD });
      await pool.identity.admins.remove('clerk'); // an account, not an admin
    });
    afterAll(async () => {
      await pool?.close();
      await strict?.close();
      await database?.drop();
    });

    it('answers at /api/identity/cognito/ (where the AWS SDK v3 posts) as without the slash, in Cognito’s error shapes', async () => {
      const body = { ClientId: client(), AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'ana.partner', PASSWORD } };
      for (const path of ['/api/identity/cognito', '/api/identity/cognito/']) {
        const res = await call(pool, 'InitiateAuth', body, path);
        expect(res.status, path).toBe(200);
        expect(res.body.AuthenticationResult.AccessToken, path).toBeTruthy();
        const unknown = await call(pool, 'AdminCreateUser', { UserPoolId: pool.identity.userPoolId, Username: 'x' }, path);
        expect(unknown).toMatchObject({ status: 400, errorType: 'UnknownOperationException', body: { __type: 'UnknownOperationException' } });
        const wrongClient = await call(pool, 'InitiateAuth', { ...body, ClientId: 'nope' }, path);
        expect(wrongClient).toMatchObject({ status: 400, errorType: 'ResourceNotFoundException' });
      }
    });

    describe('USER_SRP_AUTH', () => {
      it('signs in with the password proved, not sent; a claim is answered once', async () => {
        const { init, responses, answer } = await srpSignIn('srp.user');
        expect(init.ChallengeName).toBe('PASSWORD_VERIFIER');
        expect(init.ChallengeParameters.USER_ID_FOR_SRP).toBe((await row('srp.user')).id);
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(await adminStatus(pool, answer.body.AuthenticationResult.AccessToken)).toBe(200);
        const replay = await call(pool, 'RespondToAuthChallenge', { ClientId: client(), ChallengeName: 'PASSWORD_VERIFIER', ChallengeResponses: responses });
        expect(replay.body).toEqual({ __type: 'NotAuthorizedException', message: 'Incorrect username or password.' });
      });

      it('a wrong password, an unknown user and a user with no verifier yet get the same challenge shape and the same refusal', async () => {
        const { db, t } = database;
        const { eq } = await import('drizzle-orm');
        await db.update(t.identityUsers).set({ srpVerifier: null }).where(eq(t.identityUsers.username, 'no.verifier'));
        const wrong = await srpSignIn('srp.user', 'Not-The-Password-9');
        const unknown = await srpSignIn('nobody.here');
        const noVerifier = await srpSignIn('no.verifier');
        const shape = (p: Record<string, string>) => ({
          keys: Object.keys(p).sort(),
          salt: /^[0-9a-f]{1,32}$/.test(p.SALT!),
          b: p.SRP_B!.length > 700,
          block: Buffer.from(p.SECRET_BLOCK!, 'base64').length,
          id: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(p.USER_ID_FOR_SRP!) && p.USERNAME === p.USER_ID_FOR_SRP,
        });
        expect(shape(unknown.init.ChallengeParameters)).toEqual(shape(wrong.init.ChallengeParameters));
        expect(shape(noVerifier.init.ChallengeParameters)).toEqual(shape(wrong.init.ChallengeParameters));
        for (const attempt of [wrong, unknown, noVerifier]) {
          expect(attempt.answer).toMatchObject({ status: 400, body: { __type: 'NotAuthorizedException', message: 'Incorrect username or password.' } });
        }
        // The same writes too (a commit takes longer than a statement that changes nothing): a challenge
        // row for the unknown name as for the real one.
        const rows = async () => (await db.select().from(t.identityChallenges)).length;
        for (const name of ['srp.user', 'nobody.here']) {
          const before = await rows();
          const init = await call(pool, 'InitiateAuth', {
            ClientId: client(),
            AuthFlow: 'USER_SRP_AUTH',
            AuthParameters: { USERNAME: name, SRP_A: srpClient('x_y').SRP_A },
          });
          expect(init.body.ChallengeName, name).toBe('PASSWORD_VERIFIER');
          expect(await rows(), name).toBe(before + 1);
        }
        // Stable, as a real user's salt is: asking twice tells nothing.
        expect((await srpSignIn('nobody.here')).init.ChallengeParameters.SALT).toBe(unknown.init.ChallengeParameters.SALT);
        expect((await srpSignIn('nobody.here')).init.ChallengeParameters.USER_ID_FOR_SRP).toBe(unknown.init.ChallengeParameters.USER_ID_FOR_SRP);
        // The next password sign-in makes the verifier (sealed), and SRP works from then on.
        await tokensOf('no.verifier');
        const stored = (await row('no.verifier')).srpVerifier!;
        expect(stored).toMatch(/^sealed:v1\./);
        expect((await srpSignIn('no.verifier')).answer.status).toBe(200);
        expect(stored).not.toContain((await srpSignIn('no.verifier')).init.ChallengeParameters.SALT);
      });

      it('a password change makes a new verifier: the old password no longer proves anything', async () => {
        const { AccessToken } = await tokensOf('rotated.user');
        const changed = await call(pool, 'ChangePassword', { AccessToken, PreviousPassword: PASSWORD, ProposedPassword: 'Another-Long-Phrase-88' });
        expect(changed.status).toBe(200);
        expect((await srpSignIn('rotated.user')).answer.body.__type).toBe('NotAuthorizedException');
        expect((await srpSignIn('rotated.user', 'Another-Long-Phrase-88')).answer.status).toBe(200);
      });

      it('refuses a malformed SRP_A, and a PASSWORD_VERIFIER answer with no challenge behind it', async () => {
        for (const SRP_A of ['0', 'zz', 'f'.repeat(2000)]) {
          const res = await call(pool, 'InitiateAuth', { ClientId: client(), AuthFlow: 'USER_SRP_AUTH', AuthParameters: { USERNAME: 'srp.user', SRP_A } });
          expect(res.status, SRP_A.slice(0, 8)).toBe(400);
        }
        const invented = await call(pool, 'RespondToAuthChallenge', {
          ClientId: client(),
          ChallengeName: 'PASSWORD_VERIFIER',
          ChallengeResponses: {
            USERNAME: 'srp.user',
            PASSWORD_CLAIM_SECRET_BLOCK: randomBytes(32).toString('base64'),
            PASSWORD_CLAIM_SIGNATURE: randomBytes(32).toString('base64'),
            TIMESTAMP: 'Mon Jan 1 00:00:00 UTC 2024',
          },
        });
        expect(invented.body).toEqual({ __type: 'NotAuthorizedException', message: 'Incorrect username or password.' });
      });
    });

    it('answers to PASSWORD_VERIFIER cost the sender: a flood of invented claims from one address is refused before any is computed', async () => {
      const from = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
      const invented = () =>
        pool.app.request(
          '/api/identity/cognito',
          {
            method: 'POST',
            headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.RespondToAuthChallenge' },
            body: JSON.stringify({
              ClientId: client(),
              ChallengeName: 'PASSWORD_VERIFIER',
              ChallengeResponses: {
                USERNAME: 'srp.user',
                PASSWORD_CLAIM_SECRET_BLOCK: randomBytes(32).toString('base64'),
                PASSWORD_CLAIM_SIGNATURE: randomBytes(32).toString('base64'),
                TIMESTAMP: 'Mon Jan 1 00:00:00 UTC 2024',
              },
            }),
          },
          from('198.51.100.77'),
        );
      const answers: string[] = [];
      for (let i = 0; i < 40; i++) answers.push(((await (await invented()).json()) as { message: string }).message);
      expect(answers.slice(0, 5)).toEqual(Array(5).fill('Incorrect username or password.'));
      expect(answers.slice(-10)).toEqual(Array(10).fill('Password attempts exceeded'));
    });

    it('a key revoked with identity:rotate-keys --revoke-old from the shell is refused by another container within the bound', async () => {
      // The bound the design promises: under 2 s from the command to every container.
      expect(KEYSET_REFRESH_MS).toBeLessThanOrEqual(1000);
      const second = await servePool(database, { secrets, allowlist, adminMfa: 'optional', clock: movableClock() });
      try {
        const old = await tokensOf('ben.partner');
        expect(await adminStatus(second, old.AccessToken)).toBe(200); // the second container has read the key set
        const run = await command('scripts/identity-rotate-keys.ts', '--revoke-old');
        expect(run.code, run.out).toBe(0);
        // No waiting: the second container's clock moves past its key set's age.
        second.clock.advance(KEYSET_REFRESH_MS);
        expect(await adminStatus(second, old.AccessToken)).toBe(401);
        expect((await call(second, 'GetUser', { AccessToken: old.AccessToken })).body.__type).toBe('NotAuthorizedException');
        // Tokens signed by the new key are admitted there, and refresh tokens do not depend on the key.
        const refreshed = await call(pool, 'GetTokensFromRefreshToken', { ClientId: client(), RefreshToken: old.RefreshToken });
        expect(await adminStatus(second, refreshed.body.AuthenticationResult.AccessToken)).toBe(200);
      } finally {
        await second.close();
      }
    }, 60_000);

    describe('TOTP', () => {
      it('takes each code once: the code that verified the set-up, and a code that signed in, are refused after', async () => {
        const { AccessToken } = await tokensOf('reuse.user');
        const secret = (await call(pool, 'AssociateSoftwareToken', { AccessToken })).body.SecretCode as string;
        expect(secret).toMatch(/^[A-Z2-7]{32}$/);
        totpSecrets.set('reuse.user', secret);
        expect((await row('reuse.user')).mfaPendingSecret).toMatch(/^sealed:v1\./);
        const setupCode = nextCode(secret);
        expect((await call(pool, 'VerifySoftwareToken', { AccessToken, UserCode: setupCode })).body.Status).toBe('SUCCESS');
        await call(pool, 'SetUserMFAPreference', { AccessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } });
        expect((await row('reuse.user')).mfaSecret).toMatch(/^sealed:v1\./);

        const first = await passwordAuth('reuse.user');
        expect(first.body).toMatchObject({ ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: expect.any(String) });
        expect(first.body.AuthenticationResult).toBeUndefined();
        // Same clock step as the set-up: the code was taken.
        expect((await answerTotp(first.body.Session, 'reuse.user', setupCode)).body.__type).toBe('CodeMismatchException');
        const signInCode = nextCode(secret);
        const signedIn = await answerTotp(first.body.Session, 'reuse.user', signInCode);
        expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
        expect(await adminStatus(pool, signedIn.body.AuthenticationResult.AccessToken)).toBe(200);
        // The session is spent, and the code cannot sign in again, even within its 30 seconds.
        expect((await answerTotp(first.body.Session, 'reuse.user', signInCode)).body.__type).toBe('NotAuthorizedException');
        const again = await passwordAuth('reuse.user');
        expect((await answerTotp(again.body.Session, 'reuse.user', signInCode)).body.__type).toBe('CodeMismatchException');
        // Two sign-ins answering with the same fresh code at once: one gets in.
        const [a, b] = [(await passwordAuth('reuse.user')).body.Session, (await passwordAuth('reuse.user')).body.Session];
        const shared = nextCode(secret);
        const raced = await Promise.all([answerTotp(a, 'reuse.user', shared), answerTotp(b, 'reuse.user', shared)]);
        expect(raced.map((r) => r.status).sort()).toEqual([200, 400]);
        // SRP leads to the same challenge.
        const viaSrp = await srpSignIn('reuse.user');
        expect(viaSrp.answer.body).toMatchObject({ ChallengeName: 'SOFTWARE_TOKEN_MFA' });
        expect((await answerTotp(viaSrp.answer.body.Session, viaSrp.init.ChallengeParameters.USERNAME, nextCode(secret))).status).toBe(200);
      });

      it('wrong codes are bounded: a challenge dies after its tries, and the user’s codes are throttled across challenges', async () => {
        const secret = await withTotp('guess.user');
        const first = (await passwordAuth('guess.user')).body.Session as string;
        for (let i = 0; i < CHALLENGE_RULES.codeTries; i++) {
          expect((await answerTotp(first, 'guess.user', wrongCode(secret))).body.__type).toBe('CodeMismatchException');
        }
        // Dead: not even the right code opens it, and its row is gone.
        expect((await answerTotp(first, 'guess.user', nextCode(secret))).body).toEqual({
          __type: 'NotAuthorizedException',
          message: 'Invalid session for the user, session is expired.',
        });
        // New challenges (the password is known) keep counting the wrong codes for the user.
        let wrong = CHALLENGE_RULES.codeTries;
        while (wrong < 12) {
          const session = (await passwordAuth('guess.user')).body.Session as string;
          for (let i = 0; i < CHALLENGE_RULES.codeTries && wrong < 12; i++, wrong++) await answerTotp(session, 'guess.user', wrongCode(secret));
        }
        // The right code (the next step's, within the window, unused) is refused now.
        const right = totpCode(secret, new Date(clock.now().getTime() + STEP_MS));
        const refused = await answerTotp((await passwordAuth('guess.user')).body.Session, 'guess.user', right);
        expect(refused).toMatchObject({ status: 400, body: { __type: 'LimitExceededException' } });
        // Sixteen quiet minutes later the owner signs in.
        clock.advance(16 * 60_000);
        const later = await answerTotp((await passwordAuth('guess.user')).body.Session, 'guess.user', nextCode(secret));
        expect(later.status, JSON.stringify(later.body)).toBe(200);
      });

      it('a Session is good for its own step only, and expires', async () => {
        const secret = await withTotp('ana.partner');
        const session = (await passwordAuth('ana.partner')).body.Session as string;
        for (const [action, body] of [
          ['AssociateSoftwareToken', { Session: session }],
          ['VerifySoftwareToken', { Session: session, UserCode: nextCode(secret) }],
          ['RespondToAuthChallenge', { ClientId: client(), ChallengeName: 'MFA_SETUP', Session: session, ChallengeResponses: { USERNAME: 'ana.partner' } }],
        ] as const) {
          expect((await call(pool, action, body)).body.__type, action).toBe('NotAuthorizedException');
        }
        clock.advance(CHALLENGE_RULES.softwareTokenMs);
        expect((await answerTotp(session, 'ana.partner', nextCode(secret))).body.__type).toBe('NotAuthorizedException');
      });
    });

    describe('ADMIN_MFA=required', () => {
      it('refuses an admin without TOTP, who then sets it up at sign-in (MFA_SETUP) and is asked for a code from then on', async () => {
        const before = await tokensOf('dana.new'); // signed in where TOTP was optional
        expect(await adminStatus(strict, before.AccessToken)).toBe(401);
        expect((await call(strict, 'GetTokensFromRefreshToken', { ClientId: client(strict), RefreshToken: before.RefreshToken })).body.__type).toBe(
          'NotAuthorizedException',
        );

        const start = await passwordAuth('dana.new', PASSWORD, strict);
        expect(start.body).toMatchObject({ ChallengeName: 'MFA_SETUP', ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' } });
        expect(start.body.AuthenticationResult).toBeUndefined();
        const associated = await call(strict, 'AssociateSoftwareToken', { Session: start.body.Session });
        expect(associated.body).toMatchObject({ SecretCode: expect.stringMatching(/^[A-Z2-7]{32}$/), Session: expect.any(String) });
        const secret = associated.body.SecretCode as string;
        // The set-up session is single use; a wrong code is Cognito's EnableSoftwareTokenMFAException.
        expect((await call(strict, 'AssociateSoftwareToken', { Session: start.body.Session })).body.__type).toBe('NotAuthorizedException');
        const mismatch = await call(strict, 'VerifySoftwareToken', { Session: associated.body.Session, UserCode: wrongCode(secret) });
        expect(mismatch).toMatchObject({ status: 400, errorType: 'EnableSoftwareTokenMFAException' });
        const verified = await call(strict, 'VerifySoftwareToken', {
          Session: associated.body.Session,
          UserCode: nextCode(secret),
          FriendlyDeviceName: 'phone',
        });
        expect(verified.body).toMatchObject({ Status: 'SUCCESS', Session: expect.any(String) });
        const done = await call(strict, 'RespondToAuthChallenge', {
          ClientId: client(strict),
          ChallengeName: 'MFA_SETUP',
          Session: verified.body.Session,
          ChallengeResponses: { USERNAME: 'dana.new' },
        });
        expect(done.status, JSON.stringify(done.body)).toBe(200);
        expect(await adminStatus(strict, done.body.AuthenticationResult.AccessToken)).toBe(200);
        expect((await call(strict, 'GetUser', { AccessToken: done.body.AuthenticationResult.AccessToken })).body).toMatchObject({
          UserMFASettingList: ['SOFTWARE_TOKEN_MFA'],
          PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA',
        });
        // Turning the preference off does not get an admin past the code while TOTP is required.
        await call(strict, 'SetUserMFAPreference', { AccessToken: done.body.AuthenticationResult.AccessToken, SoftwareTokenMfaSettings: { Enabled: false } });
        expect((await passwordAuth('dana.new', PASSWORD, strict)).body.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
        expect((await srpSignIn('dana.new', PASSWORD, strict)).answer.body.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
      });

      it('leaves users who are not admins to choose', async () => {
        expect((await passwordAuth('clerk', PASSWORD, strict)).body.AuthenticationResult).toBeDefined();
      });

      it('the recovery: another admin resets a lost authenticator (never their own); the user is signed out and sets it up again', async () => {
        const ana = await tokensOf('ben.partner');
        const danaSession = await passwordAuth('dana.new', PASSWORD, strict);
        const reset = async (username: string, token = ana.AccessToken) =>
          fetch(`${pool.base}/api/admin/admins/${encodeURIComponent(username)}/mfa`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
        expect((await reset('ben.partner')).status).toBe(409);
        expect((await reset('nobody.here')).status).toBe(404);
        expect((await reset('clerk')).status).toBe(404); // not an admin
        const list = await (await fetch(`${pool.base}/api/admin/admins`, { headers: { authorization: `Bearer ${ana.AccessToken}` } })).json();
        const mfaOf = (name: string) => list.admins.find((a: { username: string }) => a.username === name).mfa;
        expect([mfaOf('reuse.user'), mfaOf('ben.partner')]).toEqual([true, false]); // the Admins screen says who signs in with TOTP
        const res = await reset('dana.new');
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ username: 'dana.new' });
        expect(await row('dana.new')).toMatchObject({ mfaSecret: null, mfaPendingSecret: null, mfaEnabled: false, mfaLastStep: null });
        // The sign-in under way ended with the sessions.
        expect((await answerTotp(danaSession.body.Session, 'dana.new', '123456', strict)).body.__type).toBe('NotAuthorizedException');
        expect((await passwordAuth('dana.new', PASSWORD, strict)).body.ChallengeName).toBe('MFA_SETUP');

        // From the shell, the same.
        const secret = await withTotp('ben.partner');
        expect(secret).toBeTruthy();
        const run = await command('scripts/admins.ts', 'reset-mfa', '--username', 'ben.partner');
        expect(run.code, run.out).toBe(0);
        expect(run.out).toContain('signed out everywhere');
        expect((await row('ben.partner')).mfaSecret).toBeNull();
        expect(await adminStatus(pool, ana.AccessToken)).toBe(401);
      }, 60_000);
    });

    it('secrets:rotate re-seals SRP verifiers and TOTP secrets: SRP and TOTP work on the new key alone', async () => {
      const newKey = randomBytes(32);
      const counts = await rotateSecrets(database, createSecretBox(newKey, [key]));
      expect(counts.identity_users).toBeGreaterThan(0);
      const rotated = await servePool(database, { secrets: createSecretBox(newKey), allowlist, adminMfa: 'optional', clock });
      try {
        const viaSrp = await srpSignIn('reuse.user', PASSWORD, rotated);
        expect(viaSrp.answer.body.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
        const signedIn = await answerTotp(viaSrp.answer.body.Session, 'reuse.user', nextCode(totpSecrets.get('reuse.user')!), rotated);
        expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
      } finally {
        await rotated.close();
      }
    });
  });
}
