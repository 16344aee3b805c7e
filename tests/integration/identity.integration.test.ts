/**
 * Identity against a real local identity service (cognito-local, started here): the browser's path
 * through the same-origin gateway, the server's own token verification, and who counts as an admin.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowlist } from '../../api/auth/admin-allowlist.ts';
import { cognitoGetUserEmail, createCognitoVerifier } from '../../api/auth/cognito-verifier.ts';
import { cognitoCall, startLocalIdentityService, type LocalIdentityService } from '../../api/identity/local-identity-service.ts';
import type { Logger } from '../../api/logger.ts';
import { createDevOutbox, type DevOutbox } from '../../api/mail/dev-outbox.ts';
import { createTestContext, type TestContext } from '../support/test-app.ts';

const PASSWORD = 'Correct-Horse-9';
const allowlist = parseAllowlist('@firm.test, partner@elsewhere.test');
let dir: string;
let identity: LocalIdentityService;
let outbox: DevOutbox;
let ctx: TestContext;
const logLines: string[] = [];
const codes = new Map<string, string>();

const capturingLogger: Logger = {
  info: (msg, f) => logLines.push(JSON.stringify({ msg, ...f })),
  warn: (msg, f) => logLines.push(JSON.stringify({ msg, ...f })),
  error: (msg, f) => logLines.push(JSON.stringify({ msg, ...f })),
};

/** What aws-amplify sends: a JSON body and the action in a header, to the same-origin gateway. */
async function gateway(action: string, body: unknown) {
  const res = await ctx.app.request('/api/identity/cognito', {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${action}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

async function signUpAndConfirm(username: string, email: string) {
  const signUp = await gateway('SignUp', { ClientId: identity.clientId, Username: username, Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: email }] });
  expect(signUp.status, JSON.stringify(signUp.body)).toBe(200);
  const code = codes.get(username);
  expect(code).toMatch(/^\d{6}$/);
  const confirm = await gateway('ConfirmSignUp', { ClientId: identity.clientId, Username: username, ConfirmationCode: code });
  expect(confirm.status).toBe(200);
}

async function signIn(username: string, clientId = identity.clientId) {
  const res = await gateway('InitiateAuth', { ClientId: clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: username, PASSWORD } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.AuthenticationResult as { AccessToken: string; IdToken: string; RefreshToken: string };
}

/** A confirmed user made with the service's admin API (not reachable through the gateway). */
async function adminCreate(username: string, email: string, group?: string) {
  await cognitoCall(identity.endpoint, 'AdminCreateUser', {
    UserPoolId: identity.userPoolId,
    Username: username,
    MessageAction: 'SUPPRESS',
    TemporaryPassword: 'Temporary-Pass-1',
    UserAttributes: [
      { Name: 'email', Value: email },
      { Name: 'email_verified', Value: 'true' },
    ],
  });
  await cognitoCall(identity.endpoint, 'AdminSetUserPassword', { UserPoolId: identity.userPoolId, Username: username, Password: PASSWORD, Permanent: true });
  if (group) await cognitoCall(identity.endpoint, 'AdminAddUserToGroup', { UserPoolId: identity.userPoolId, Username: username, GroupName: group });
}

const adminCall = (token?: string) => ctx.call('GET', '/api/admin/testimonials', { token });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'firm-identity-'));
  outbox = createDevOutbox(join(dir, 'outbox'));
  identity = await startLocalIdentityService({
    dataDir: join(dir, 'identity'),
    allowlist,
    log: capturingLogger,
    onMessage: (m) => {
      if (m.code) codes.set(m.username, m.code);
      outbox.deliver({ to: m.to, subject: m.subject, text: m.text });
    },
  });
  const verifier = createCognitoVerifier({
    issuer: identity.issuer,
    jwksUrl: identity.jwksUrl,
    clientId: identity.clientId,
    allowlist,
    userEmail: cognitoGetUserEmail(identity.endpoint),
  });
  ctx = await createTestContext('sqlite', {
    verifier,
    identity: { userPoolId: identity.userPoolId, clientId: identity.clientId, region: null, localEndpoint: identity.endpoint },
  });
});

afterAll(async () => {
  await identity?.stop();
  await ctx?.database.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('identity with the embedded identity service', () => {
  it('serves the public pool settings the browser needs, nothing secret', async () => {
    const res = await ctx.call('GET', '/api/identity/config');
    expect(res.body).toEqual({
      userPoolId: identity.userPoolId,
      userPoolClientId: identity.clientId,
      region: null,
      userPoolEndpoint: '/api/identity/cognito',
      authFlowType: 'USER_PASSWORD_AUTH',
    });
  });

  it('signs up an allowed address, confirms it with the delivered code, signs in, and calls the admin API (200)', async () => {
    await signUpAndConfirm('ana.partner', 'ana@firm.test');
    const delivered = outbox.list().find((m) => m.to === 'ana@firm.test');
    expect(delivered?.text).toContain(codes.get('ana.partner'));
    const tokens = await signIn('ana.partner');
    const res = await adminCall(tokens.AccessToken);
    expect(res.status).toBe(200);
    const session = await ctx.call('GET', '/api/admin/session', { token: tokens.AccessToken });
    expect(session.body).toEqual({ username: 'ana.partner', email: 'ana@firm.test', groups: [] });
  });

  it('refuses to sign up an address that is not allowed (so strangers cannot create admins)', async () => {
    const res = await gateway('SignUp', {
      ClientId: identity.clientId,
      Username: 'stranger',
      Password: PASSWORD,
      UserAttributes: [{ Name: 'email', Value: 'stranger@evil.test' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.__type).toBe('UserLambdaValidationException');
    const signIn = await gateway('InitiateAuth', { ClientId: identity.clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'stranger', PASSWORD } });
    expect(signIn.status).toBe(400);
  });

  it('cannot sign in before the e-mail is verified', async () => {
    await gateway('SignUp', { ClientId: identity.clientId, Username: 'unverified', Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: 'new@firm.test' }] });
    const res = await gateway('InitiateAuth', { ClientId: identity.clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'unverified', PASSWORD } });
    expect(res.status).toBe(400);
    expect(res.body.__type).toBe('UserNotConfirmedException');
  });

  it('answers 401 without a token, with a tampered signature, an id token, or an expired token', async () => {
    const tokens = await signIn('ana.partner');
    expect((await adminCall()).status).toBe(401);
    const [h, p, s] = tokens.AccessToken.split('.');
    const flipped = `${h}.${p}.${s!.slice(0, -4)}${s!.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    expect((await adminCall(flipped)).status).toBe(401);
    // A payload edited to claim the admin group, with the original signature.
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, 'cognito:groups': ['admin'] })).toString('base64url')}.${s}`;
    expect((await adminCall(forged)).status).toBe(401);
    expect((await adminCall(tokens.IdToken)).status).toBe(401);
    const later = createCognitoVerifier({
      issuer: identity.issuer,
      jwksUrl: identity.jwksUrl,
      clientId: identity.clientId,
      allowlist,
      userEmail: cognitoGetUserEmail(identity.endpoint),
      now: () => Date.now() + 25 * 3600_000,
    });
    expect(await later.verify(tokens.AccessToken)).toBeNull();
  });

  it('answers 401 for a token of another user pool, and of another app client', async () => {
    const { UserPool } = await cognitoCall<{ UserPool: { Id: string } }>(identity.endpoint, 'CreateUserPool', { PoolName: 'other-pool' });
    const { UserPoolClient: otherPoolClient } = await cognitoCall<{ UserPoolClient: { ClientId: string } }>(identity.endpoint, 'CreateUserPoolClient', {
      UserPoolId: UserPool.Id,
      ClientName: 'other',
    });
    await cognitoCall(identity.endpoint, 'AdminCreateUser', {
      UserPoolId: UserPool.Id,
      Username: 'elsewhere',
      MessageAction: 'SUPPRESS',
      TemporaryPassword: 'Temporary-Pass-1',
      UserAttributes: [{ Name: 'email', Value: 'x@firm.test' }, { Name: 'email_verified', Value: 'true' }],
    });
    await cognitoCall(identity.endpoint, 'AdminSetUserPassword', { UserPoolId: UserPool.Id, Username: 'elsewhere', Password: PASSWORD, Permanent: true });
    const otherPool = await signIn('elsewhere', otherPoolClient.ClientId);
    expect((await adminCall(otherPool.AccessToken)).status).toBe(401);

    const { UserPoolClient: otherClient } = await cognitoCall<{ UserPoolClient: { ClientId: string } }>(identity.endpoint, 'CreateUserPoolClient', {
      UserPoolId: identity.userPoolId,
      ClientName: 'another-app',
    });
    const viaOtherClient = await signIn('ana.partner', otherClient.ClientId);
    expect((await adminCall(viaOtherClient.AccessToken)).status).toBe(401);
  });

  it('answers 403 for a valid token of a user who is not an admin, 200 for a member of the admin group', async () => {
    await adminCreate('paralegal', 'paralegal@outside.test');
    const outsider = await signIn('paralegal');
    const res = await adminCall(outsider.AccessToken);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Admin access required');

    await adminCreate('grouped', 'grouped@outside.test', 'admin');
    expect((await adminCall((await signIn('grouped')).AccessToken)).status).toBe(200);
    // An exact address on the list counts too.
    await adminCreate('partner', 'partner@elsewhere.test');
    expect((await adminCall((await signIn('partner')).AccessToken)).status).toBe(200);
  });

  it('does not count an unverified address on the list as an admin', async () => {
    await cognitoCall(identity.endpoint, 'AdminCreateUser', {
      UserPoolId: identity.userPoolId,
      Username: 'unverified-admin',
      MessageAction: 'SUPPRESS',
      TemporaryPassword: 'Temporary-Pass-1',
      UserAttributes: [{ Name: 'email', Value: 'boss@firm.test' }],
    });
    await cognitoCall(identity.endpoint, 'AdminSetUserPassword', { UserPoolId: identity.userPoolId, Username: 'unverified-admin', Password: PASSWORD, Permanent: true });
    expect((await adminCall((await signIn('unverified-admin')).AccessToken)).status).toBe(403);
  });

  it('refreshes tokens through the gateway (GetTokensFromRefreshToken), and the new token works', async () => {
    const tokens = await signIn('ana.partner');
    const res = await gateway('GetTokensFromRefreshToken', { ClientId: identity.clientId, RefreshToken: tokens.RefreshToken });
    expect(res.status).toBe(200);
    expect(res.body.AuthenticationResult.AccessToken).toBeTypeOf('string');
    expect((await adminCall(res.body.AuthenticationResult.AccessToken)).status).toBe(200);
  });

  it('passes only user-facing actions through the gateway', async () => {
    for (const action of ['AdminCreateUser', 'AdminAddUserToGroup', 'CreateUserPool', 'ListUsers', 'AdminSetUserPassword']) {
      const res = await gateway(action, { UserPoolId: identity.userPoolId, Username: 'x' });
      expect(res.status, action).toBe(400);
    }
    const users = await cognitoCall<{ Users: unknown[] }>(identity.endpoint, 'ListUsers', { UserPoolId: identity.userPoolId });
    expect(JSON.stringify(users)).not.toContain('"Username":"x"');
  });

  it('npm run admin:create makes a confirmed admin in the running service, who can sign in at once', async () => {
    const run = (username: string) =>
      new Promise<{ code: number; out: string }>((resolve) => {
        execFile(
          process.execPath,
          ['scripts/admin-create.ts', '--username', username, '--email', 'office@outside.test', '--password', PASSWORD],
          { env: { ...process.env, IDENTITY_DATA_DIR: join(dir, 'identity'), OUTBOX_DIR: join(dir, 'outbox'), COGNITO_USER_POOL_ID: '' } },
          (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr }),
        );
      });
    const first = await run('office.manager');
    expect(first.out).toContain(`Admin "office.manager" created in user pool ${identity.userPoolId}`);
    expect(first.code).toBe(0);
    const tokens = await signIn('office.manager');
    const session = await ctx.call('GET', '/api/admin/session', { token: tokens.AccessToken });
    expect(session.status).toBe(200);
    expect(session.body.groups).toEqual(['admin']);
    const again = await run('office.manager');
    expect(again.code).toBe(1);
    expect(again.out).toContain('already exists');
    expect(first.out + again.out).not.toContain(PASSWORD);
  });

  it('never puts a password in the logs, the API responses or the database', async () => {
    const tokens = await signIn('ana.partner');
    const responses = [await ctx.call('GET', '/api/identity/config'), await ctx.call('GET', '/api/admin/session', { token: tokens.AccessToken })];
    const everything = [...logLines, ...responses.map((r) => JSON.stringify(r.body))].join('\n');
    expect(everything).not.toContain(PASSWORD);
    const { db, t } = ctx.database;
    const users = await db.select().from(t.users);
    expect(JSON.stringify(users)).not.toContain(PASSWORD);
  });
});
