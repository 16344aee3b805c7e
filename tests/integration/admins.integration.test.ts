/**
 * The Admins screen's API (docs/decisions/030): GET /api/admin/admins and DELETE
 * /api/admin/admins/:username, with the embedded identity service on SQLite and PostgreSQL (its real
 * tokens, sessions and guard), and with a Cognito pool through the AWS SDK against a local Cognito
 * speaking AWS's JSON protocol (tests/support/cognito-peer.ts), the real token verifier included.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedAdminDirectory } from '../../api/admins/admin-directory.ts';
import { cognitoAdminDirectory } from '../../api/admins/cognito-admin-directory.ts';
import { createApp, type App } from '../../api/app.ts';
import { parseAllowlist } from '../../api/auth/admin-allowlist.ts';
import { cognitoGetUser, createCognitoVerifier } from '../../api/auth/cognito-verifier.ts';
import { startEmbeddedIdentity, type EmbeddedIdentity } from '../../api/identity/embedded-identity.ts';
import { identityRepository } from '../../api/identity/identity.repository.ts';
import { COGNITO_CLIENT_ID, COGNITO_ISSUER, COGNITO_POOL_ID, COGNITO_REGION, startCognitoPeer, type CognitoPeer } from '../support/cognito-peer.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/test-database.ts';
import { testDeps, testSecrets } from '../support/test-deps.ts';

const PASSWORD = 'Harbor-Lantern-Quiet-42';
const allowlist = parseAllowlist('@firm.test');

// biome-ignore lint/suspicious/noExplicitAny: answers of many shapes, read field by field in the tests
type Answer = { status: number; body: any };
async function request(app: App, method: string, path: string, token?: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => null) };
}

for (const dialect of dialects) {
  describe(`admins: the embedded identity service's admin group [${dialect}]`, () => {
    let database: TestDatabase;
    let identity: EmbeddedIdentity;
    let app: App;
    const call = (method: string, path: string, token?: string) => request(app, method, path, token);

    async function signIn(username: string) {
      const res = await identity.call(
        'InitiateAuth',
        { ClientId: identity.clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: username, PASSWORD: PASSWORD } },
        { clientAddress: '198.51.100.7' },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body as { AuthenticationResult: { AccessToken: string; RefreshToken: string } }).AuthenticationResult;
    }
    const makeAdmin = (username: string, email = `${username}@outside.test`) => identity.admins.create({ username, email, password: PASSWORD });
    const groupNames = async () => (await identity.admins.members()).map((m) => m.username);
    /** Every row of the identity tables: what a refused request must leave as it was. */
    const snapshot = async () => {
      const { db, t } = database;
      return JSON.stringify([await db.select().from(t.identityUsers), await db.select().from(t.identitySessions)]);
    };

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      identity = await startEmbeddedIdentity({ database, secrets: testSecrets, clock: { now: () => new Date() }, allowlist, sendCode: () => {} });
      app = createApp(
        testDeps(database, {
          verifier: identity.verifier(allowlist),
          identity: { userPoolId: identity.userPoolId, clientId: identity.clientId, region: null, embedded: true },
          embeddedIdentity: identity,
          adminDirectory: embeddedAdminDirectory(identity, allowlist),
        }),
      );
    });
    afterAll(async () => {
      await database?.drop();
    });

    it('lists the admin group (the caller marked, last sign-in when known) and the ADMIN_EMAILS entries', async () => {
      await makeAdmin('ana.partner');
      await makeAdmin('ben.clerk');
      await makeAdmin('cy.associate', 'cy@firm.test');
      // Not an admin: taken out of the group by the operator's command.
      await makeAdmin('dee.former');
      await identity.admins.remove('dee.former');
      const ana = await signIn('ana.partner');
      await signIn('ben.clerk');

      const res = await call('GET', '/api/admin/admins', ana.AccessToken);
      expect(res.status).toBe(200);
      expect(res.body.service).toBe('embedded');
      expect(res.body.allowlist).toEqual(['@firm.test']);
      const rows = res.body.admins as Record<string, unknown>[];
      expect(rows.map((r) => r.username)).toEqual(['ana.partner', 'ben.clerk', 'cy.associate']);
      expect(rows[0]).toMatchObject({
        email: 'ana.partner@outside.test',
        emailVerified: true,
        enabled: true,
        status: 'CONFIRMED',
        isYou: true,
        onAllowlist: false,
      });
      expect(rows[1]).toMatchObject({ isYou: false, onAllowlist: false });
      expect(rows[2]).toMatchObject({ isYou: false, onAllowlist: true, lastSignInAt: null });
      for (const row of rows.slice(0, 2)) {
        expect(Date.now() - Date.parse(String(row.lastSignInAt))).toBeLessThan(60_000);
        expect(Date.now() - Date.parse(String(row.createdAt))).toBeLessThan(60_000);
      }
    });

    it('removes an admin: out of the group, signed out at once (the next admin call and a refresh are refused)', async () => {
      const ana = await signIn('ana.partner');
      const ben = await signIn('ben.clerk');
      expect((await call('GET', '/api/admin/session', ben.AccessToken)).status).toBe(200);

      const res = await call('DELETE', '/api/admin/admins/ben.clerk', ana.AccessToken);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ username: 'ben.clerk', mayAskAgain: false });
      expect(await groupNames()).toEqual(['ana.partner', 'cy.associate']);
      expect((await call('GET', '/api/admin/session', ben.AccessToken)).status).toBe(401);
      const refreshed = await identity.call(
        'GetTokensFromRefreshToken',
        { ClientId: identity.clientId, RefreshToken: ben.RefreshToken },
        { clientAddress: '198.51.100.7' },
      );
      expect(refreshed.status).toBe(400);
      // Signing in again gives a token the guard refuses: no longer an admin.
      expect((await call('GET', '/api/admin/session', (await signIn('ben.clerk')).AccessToken)).status).toBe(403);
      // The CLI puts the account back.
      await identity.admins.add('ben.clerk');
      expect((await call('GET', '/api/admin/session', (await signIn('ben.clerk')).AccessToken)).status).toBe(200);
    });

    it('says when a removed admin may ask again (their address is on ADMIN_EMAILS): they are no admin, only a request', async () => {
      const ana = await signIn('ana.partner');
      const cy = await signIn('cy.associate');
      const res = await call('DELETE', '/api/admin/admins/cy.associate', ana.AccessToken);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ username: 'cy.associate', mayAskAgain: true });
      expect(await groupNames()).toEqual(['ana.partner', 'ben.clerk']);
      expect((await call('GET', '/api/admin/session', cy.AccessToken)).status).toBe(401);
      // Signing in again: ADMIN_EMAILS lets them ask, never makes them an admin.
      const again = await call('GET', '/api/admin/session', (await signIn('cy.associate')).AccessToken);
      expect(again.status).toBe(403);
      expect(again.body.code).toBe('approval-pending');
      await identity.admins.add('cy.associate');
    });

    it('refuses removing yourself (409, nothing changed); the group keeps its last member who can sign in', async () => {
      const ana = await signIn('ana.partner');
      const before = await snapshot();
      const self = await call('DELETE', '/api/admin/admins/ana.partner', ana.AccessToken);
      expect(self.status).toBe(409);
      expect(self.body.error).toMatch(/^You cannot remove yourself/);
      expect(await snapshot()).toEqual(before);

      // Only members are admins, so a caller is always one of those who can sign in: the last-member
      // refusal is the directory's (and a race's, below). With ben and cy out, ana is the last.
      await identity.admins.remove('ben.clerk');
      await identity.admins.remove('cy.associate');
      const beforeLast = await snapshot();
      expect(await embeddedAdminDirectory(identity, allowlist).removeFromGroup('ana.partner')).toEqual({ outcome: 'last-member' });
      expect(await snapshot()).toEqual(beforeLast);
      expect(await groupNames()).toEqual(['ana.partner']);
      for (const name of ['ben.clerk', 'cy.associate']) await identity.admins.add(name);
    });

    it('a disabled member does not count as the admin who stays', async () => {
      await makeAdmin('eve.disabled');
      await database.db.update(database.t.identityUsers).set({ enabled: false }).where(eq(database.t.identityUsers.username, 'eve.disabled'));
      await identity.admins.remove('ben.clerk');
      await identity.admins.remove('cy.associate');
      const directory = embeddedAdminDirectory(identity, allowlist);
      expect(await directory.removeFromGroup('ana.partner')).toEqual({ outcome: 'last-member' });
      // A disabled member can be removed while an enabled one stays.
      const ana = await signIn('ana.partner');
      expect((await call('DELETE', '/api/admin/admins/eve.disabled', ana.AccessToken)).status).toBe(200);
      for (const name of ['ben.clerk', 'cy.associate']) await identity.admins.add(name);
    });

    it('two admins removing each other at the same moment leave one of them in the group', async () => {
      const repo = identityRepository(database);
      for (let round = 0; round < 5; round++) {
        await makeAdmin(`race-a-${round}`);
        await makeAdmin(`race-b-${round}`);
        // Only the two of them in the group: everyone else out for the round.
        const others = (await identity.admins.members()).filter((m) => !m.username.startsWith(`race-`) || !m.username.endsWith(`-${round}`));
        for (const m of others) await identity.admins.remove(m.username);
        const [a, b] = await identity.admins.members();
        const results = await Promise.all([repo.takeOutOfAdminGroupUnlessLast(a!.id), repo.takeOutOfAdminGroupUnlessLast(b!.id)]);
        expect(results.filter(Boolean), `round ${round}`).toHaveLength(1);
        expect(await identity.admins.members(), `round ${round}`).toHaveLength(1);
      }
      // And through the API: one is removed, the other refused (409, or 401 once its own session ended).
      await makeAdmin('race-c');
      await makeAdmin('race-d');
      for (const m of await identity.admins.members()) if (!['race-c', 'race-d'].includes(m.username)) await identity.admins.remove(m.username);
      const [c, d] = [await signIn('race-c'), await signIn('race-d')];
      const answers = await Promise.all([call('DELETE', '/api/admin/admins/race-d', c.AccessToken), call('DELETE', '/api/admin/admins/race-c', d.AccessToken)]);
      expect(answers.map((a) => a.status).filter((s) => s === 200)).toHaveLength(1);
      expect(answers.map((a) => a.status).every((s) => [200, 401, 409].includes(s))).toBe(true);
      expect(await identity.admins.members()).toHaveLength(1);
      for (const name of ['ana.partner', 'ben.clerk']) await identity.admins.add(name);
    });

    it('answers 404 for an unknown admin, a user who is not an admin, and a username no pool allows; nothing changed', async () => {
      const ana = await signIn('ana.partner');
      const before = await snapshot();
      for (const name of ['nobody', 'dee.former', 'race-a-0', 'ANA', 'a%20b', 'x'.repeat(129), '%00', '%F0%9F', '..%2F..%2Fetc']) {
        const res = await call('DELETE', `/api/admin/admins/${name}`, ana.AccessToken);
        expect(res.status, name).toBe(404);
        expect(typeof res.body.error, name).toBe('string');
      }
      expect(await snapshot()).toEqual(before);
    });

    it('refuses callers the guard refuses: no token (401), a user who is not an admin (403); nothing changed', async () => {
      const dee = await signIn('dee.former');
      const before = await snapshot();
      for (const [method, path] of [
        ['GET', '/api/admin/admins'],
        ['DELETE', '/api/admin/admins/ben.clerk'],
      ] as const) {
        expect((await call(method, path)).status).toBe(401);
        expect((await call(method, path, 'not-a-token')).status).toBe(401);
        expect((await call(method, path, dee.AccessToken)).status).toBe(403);
      }
      expect(await snapshot()).toEqual(before);
    });
  });
}

describe('admins: a Cognito user pool through the AWS SDK', () => {
  let peer: CognitoPeer;
  let database: TestDatabase;
  const keys = {
    full: { accessKeyId: 'AKIAFULLACCESS000001', secretAccessKey: 'full-secret' },
    readOnly: { accessKeyId: 'AKIAREADONLY00000001', secretAccessKey: 'read-secret' },
    unknown: { accessKeyId: 'AKIAUNKNOWN000000001', secretAccessKey: 'nope' },
  };

  /** The app over the local pool: the real verifier (JWKS + GetUser), the directory with `credentials`. */
  function appWith(credentials: (typeof keys)[keyof typeof keys] | undefined) {
    return createApp(
      testDeps(database, {
        verifier: createCognitoVerifier({
          issuer: COGNITO_ISSUER,
          jwksUrl: `${peer.url}/${COGNITO_POOL_ID}/.well-known/jwks.json`,
          clientId: COGNITO_CLIENT_ID,
          allowlist,
          getUser: cognitoGetUser(`${peer.url}/`),
          livenessMs: 0,
        }),
        identity: { userPoolId: COGNITO_POOL_ID, clientId: COGNITO_CLIENT_ID, region: COGNITO_REGION, embedded: false },
        adminDirectory: cognitoAdminDirectory({ region: COGNITO_REGION, userPoolId: COGNITO_POOL_ID, allowlist, endpoint: peer.url, credentials }),
      }),
    );
  }

  beforeAll(async () => {
    peer = await startCognitoPeer({ permissions: { [keys.full.accessKeyId]: ['*'], [keys.readOnly.accessKeyId]: ['ListUsersInGroup'] }, pageSize: 2 });
    database = await createTestDatabase('sqlite');
    peer.addUser({ username: 'ana.partner', email: 'ana@outside.test' });
    peer.addUser({ username: 'ben.clerk', email: 'ben@outside.test' });
    peer.addUser({ username: 'cy.associate', email: 'cy@firm.test' });
    peer.addUser({ username: 'dee.visitor', email: 'dee@outside.test', admin: false });
  });
  afterAll(async () => {
    await peer?.close();
    await database?.drop();
  });

  it('lists the group page by page, with the caller marked, signed with the server’s credentials', async () => {
    const app = appWith(keys.full);
    const res = await request(app, 'GET', '/api/admin/admins', await peer.accessToken('ana.partner'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.service).toBe('cognito');
    expect(res.body.allowlist).toEqual(['@firm.test']);
    expect(res.body.admins.map((a: { username: string }) => a.username)).toEqual(['ana.partner', 'ben.clerk', 'cy.associate']);
    expect(res.body.admins[0]).toMatchObject({ isYou: true, email: 'ana@outside.test', emailVerified: true, status: 'CONFIRMED', lastSignInAt: null });
    expect(res.body.admins[0].createdAt).toBe(peer.users.get('ana.partner')!.createdAt.toISOString());
    expect(res.body.admins[2]).toMatchObject({ isYou: false, onAllowlist: true });
    // Two pages of two: NextToken followed.
    expect(peer.calls.filter((c) => c.action === 'ListUsersInGroup').map((c) => c.accessKeyId)).toEqual([keys.full.accessKeyId, keys.full.accessKeyId]);
  });

  it('removes an admin (AdminRemoveUserFromGroup, AdminUserGlobalSignOut): their next admin call is refused', async () => {
    const app = appWith(keys.full);
    const ana = await peer.accessToken('ana.partner');
    const ben = await peer.accessToken('ben.clerk');
    expect((await request(app, 'GET', '/api/admin/session', ben)).status).toBe(200);
    peer.calls.length = 0;
    const res = await request(app, 'DELETE', '/api/admin/admins/ben.clerk', ana);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ username: 'ben.clerk', mayAskAgain: false });
    expect(peer.calls.map((c) => c.action)).toEqual([
      'ListUsersInGroup',
      'ListUsersInGroup',
      'ListUsersInGroup',
      'ListUsersInGroup',
      'AdminRemoveUserFromGroup',
      'AdminUserGlobalSignOut',
    ]);
    expect(peer.users.get('ben.clerk')!.groups.has('admin')).toBe(false);
    expect((await request(app, 'GET', '/api/admin/session', ben)).status).toBe(401);
  });

  it('refuses removing yourself and the last admin (409), and an unknown admin (404), calling nothing that changes the pool', async () => {
    const app = appWith(keys.full);
    peer.calls.length = 0;
    const self = await request(app, 'DELETE', '/api/admin/admins/ana.partner', await peer.accessToken('ana.partner'));
    expect(self.status).toBe(409);
    expect(self.body.error).toMatch(/^You cannot remove yourself/);
    expect((await request(app, 'DELETE', '/api/admin/admins/dee.visitor', await peer.accessToken('ana.partner'))).status).toBe(404);
    expect((await request(app, 'DELETE', '/api/admin/admins/nobody', await peer.accessToken('ana.partner'))).status).toBe(404);
    // The group comes from the token: cy's, minted while a member, still says admin for its hour after
    // someone takes cy out in the console (no sign-out there). With ben out too, ana is the last member.
    const cyToken = await peer.accessToken('cy.associate');
    peer.users.get('cy.associate')!.groups.delete('admin');
    peer.users.get('ben.clerk')!.groups.delete('admin');
    peer.calls.length = 0;
    const last = await request(app, 'DELETE', '/api/admin/admins/ana.partner', cyToken);
    expect(last.status).toBe(409);
    expect(last.body.error).toMatch(/^ana\.partner is the last admin who can sign in/);
    expect(peer.calls.map((c) => c.action)).not.toContain('AdminRemoveUserFromGroup');
    expect(peer.users.get('ana.partner')!.groups.has('admin')).toBe(true);
    peer.users.get('ben.clerk')!.groups.add('admin');
    peer.users.get('cy.associate')!.groups.add('admin');
  });

  it('a verified ADMIN_EMAILS user outside the group is a request (403 approval-pending); approving adds them to the group', async () => {
    const app = appWith(keys.full);
    peer.addUser({ username: 'eva.requester', email: 'eva@firm.test', admin: false });
    peer.addUser({ username: 'gus.unverified', email: 'gus@firm.test', admin: false, emailVerified: false });
    const eva = await peer.accessToken('eva.requester');
    const pending = await request(app, 'GET', '/api/admin/session', eva);
    expect(pending).toMatchObject({ status: 403, body: { code: 'approval-pending' } });
    // Not on the list, or not verified: a plain refusal.
    for (const name of ['dee.visitor', 'gus.unverified']) {
      const plain = await request(app, 'GET', '/api/admin/session', await peer.accessToken(name));
      expect(plain.status, name).toBe(403);
      expect(plain.body.code, name).toBeUndefined();
    }
    const ana = await peer.accessToken('ana.partner');
    const listed = await request(app, 'GET', '/api/admin/admin-requests', ana);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.requests).toEqual([
      { username: 'eva.requester', email: 'eva@firm.test', requestedAt: peer.users.get('eva.requester')!.createdAt.toISOString() },
    ]);
    // Only a listed request: someone outside ADMIN_EMAILS is not approved through this button.
    peer.calls.length = 0;
    expect((await request(app, 'POST', '/api/admin/admin-requests/dee.visitor/approve', ana)).status).toBe(404);
    expect(peer.calls.map((c) => c.action)).not.toContain('AdminAddUserToGroup');
    const approved = await request(app, 'POST', '/api/admin/admin-requests/eva.requester/approve', ana);
    expect(approved).toEqual({ status: 200, body: { username: 'eva.requester', outcome: 'approved' } });
    expect(peer.calls.map((c) => c.action)).toContain('AdminAddUserToGroup');
    expect(peer.users.get('eva.requester')!.groups.has('admin')).toBe(true);
    // The group is in the token: her next one (a refresh) is an admin's.
    expect((await request(app, 'GET', '/api/admin/session', await peer.accessToken('eva.requester'))).status).toBe(200);
    peer.users.get('eva.requester')!.groups.delete('admin');
    peer.users.get('eva.requester')!.enabled = false;
  });

  it('refusing a request disables the user (AdminDisableUser) and signs them out', async () => {
    const app = appWith(keys.full);
    peer.addUser({ username: 'fay.requester', email: 'fay@firm.test', admin: false });
    const fay = await peer.accessToken('fay.requester');
    peer.calls.length = 0;
    const refused = await request(app, 'POST', '/api/admin/admin-requests/fay.requester/refuse', await peer.accessToken('ana.partner'));
    expect(refused).toEqual({ status: 200, body: { username: 'fay.requester', outcome: 'refused' } });
    expect(peer.calls.map((c) => c.action)).toEqual(expect.arrayContaining(['AdminDisableUser', 'AdminUserGlobalSignOut']));
    expect(peer.users.get('fay.requester')!.enabled).toBe(false);
    expect((await request(app, 'GET', '/api/admin/session', fay)).status).toBe(401);
    expect((await request(app, 'GET', '/api/admin/admin-requests', await peer.accessToken('ana.partner'))).body.requests).toEqual([]);
  });

  it('invitations are not made here with a Cognito pool: 501 naming the console and the command', async () => {
    const app = appWith(keys.full);
    const ana = await peer.accessToken('ana.partner');
    const list = await request(app, 'GET', '/api/admin/admin-invitations', ana);
    expect(list.body).toMatchObject({ canInvite: false, invitations: [] });
    expect(list.body.unavailable).toMatch(/AWS Cognito console/);
    const invite = await request(app, 'POST', '/api/admin/admin-invitations', ana, { email: 'new@firm.test' });
    expect(invite.status).toBe(501);
    expect(invite.body.error).toMatch(/^With a Cognito user pool, invite from the AWS Cognito console .* npm run admin:create/);
    expect([...peer.users.keys()]).not.toContain('new@firm.test');
  });

  it('credentials without the permission, or that AWS does not know: 503 naming the permission and the command instead', async () => {
    const ana = await peer.accessToken('ana.partner');
    const readOnly = appWith(keys.readOnly);
    expect((await request(readOnly, 'GET', '/api/admin/admins', ana)).status).toBe(200);
    const denied = await request(readOnly, 'DELETE', '/api/admin/admins/ben.clerk', ana);
    expect(denied.status).toBe(503);
    expect(denied.body.error).toContain('Removing admins needs AWS credentials allowed');
    expect(denied.body.error).toContain('cognito-idp:AdminRemoveUserFromGroup');
    expect(denied.body.error).toContain('AccessDeniedException');
    expect(denied.body.error).toContain('npm run admin:remove');
    expect(peer.users.get('ben.clerk')!.groups.has('admin')).toBe(true);

    const unknown = await request(appWith(keys.unknown), 'GET', '/api/admin/admins', ana);
    expect(unknown.status).toBe(503);
    expect(unknown.body.error).toMatch(
      /^Listing admins needs AWS credentials allowed cognito-idp:ListUsersInGroup on the user pool us-west-2_LocalPool1; AWS refused/,
    );
    expect(unknown.body.error).not.toContain(keys.unknown.secretAccessKey);
  });

  it('no AWS credentials at all: 503 saying so, with npm run admin:list as the alternative', async () => {
    // The SDK's own chain, with nothing to find: no keys, no profile files, no instance metadata.
    const dir = mkdtempSync(join(tmpdir(), 'no-aws-'));
    const saved = { ...process.env };
    for (const name of Object.keys(process.env)) if (name.startsWith('AWS_') && name !== 'AWS_CA_BUNDLE') delete process.env[name];
    Object.assign(process.env, {
      AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials'),
      AWS_CONFIG_FILE: join(dir, 'config'),
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    try {
      const res = await request(appWith(undefined), 'GET', '/api/admin/admins', await peer.accessToken('ana.partner'));
      expect(res.status).toBe(503);
      expect(res.body.error).toMatch(
        /^Listing admins needs AWS credentials allowed cognito-idp:ListUsersInGroup on the user pool us-west-2_LocalPool1, and this server has none/,
      );
      expect(res.body.error).toContain('npm run admin:list');
    } finally {
      process.env = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
