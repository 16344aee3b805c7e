/**
 * Becoming an admin needs an admin (docs/decisions/041), on SQLite and PostgreSQL, with the embedded
 * identity service's real tokens, sessions and guard: a confirmed sign-up on ADMIN_EMAILS is a request
 * the admin API refuses (403 approval-pending) until an admin approves it; refusing disables it; an
 * admin's invitation is a single-use, expiring link whose holder becomes a confirmed admin, refused
 * with one answer once it cannot be used, and taken once under races.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { embeddedAdminDirectory } from '../../api/admins/admin-directory.ts';
import { INVITATION_UNUSABLE } from '../../api/admins/admins.service.ts';
import { createApp, type App } from '../../api/app.ts';
import { parseAllowlist } from '../../api/auth/admin-allowlist.ts';
import { createMemoryRateLimitStore, noRateLimits } from '../../api/http/rate-limit.ts';
import { embeddedInvitations, type IdentityMail, INVITATION_DAYS, invitationDigest, type MailOutcome } from '../../api/identity/admission.ts';
import { startEmbeddedIdentity, type EmbeddedIdentity } from '../../api/identity/embedded-identity.ts';
import type { Logger } from '../../api/logger.ts';
import { readHeldMail } from '../support/held-mail.ts';
import { INVITATION_TOKEN_HEADER } from '../../src/shared/schemas/admins.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/test-database.ts';
import { testDeps, testSecrets } from '../support/test-deps.ts';

const PASSWORD = 'Harbor-Lantern-Quiet-42';
const allowlist = parseAllowlist('@firm.test');
const DAY = 86_400_000;

// biome-ignore lint/suspicious/noExplicitAny: answers of many shapes, read field by field in the tests
type Answer = { status: number; body: any };

describe('npm run admin:invite (the operator’s shell, embedded pool on SQLite)', () => {
  it('with no e-mail setting, keeps the invitation in the outbox and prints its link once; refuses a taken address and a Cognito pool', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'firm-invite-'));
    const env = {
      ...process.env,
      SQLITE_PATH: join(dir, 'site.db'),
      SECRETS_KEY_FILE: join(dir, 'secrets.key'),
      DATABASE_URL: '',
      COGNITO_USER_POOL_ID: '',
      OUTBOX_DIR: join(dir, 'outbox'),
      SITE_URL: 'https://firm.example',
    };
    const run = (args: string[], extra: Record<string, string> = {}) =>
      new Promise<{ code: number; out: string }>((resolve) => {
        execFile(process.execPath, ['scripts/admins.ts', ...args], { env: { ...env, ...extra } }, (err, stdout, stderr) =>
          resolve({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr }),
        );
      });
    try {
      const invited = await run(['invite', '--email', 'Dana@Colleagues.test', '--invited-by', 'ana.partner']);
      expect(invited.code, invited.out).toBe(0);
      expect(invited.out).toMatch(
        /No e-mail is configured, so the invitation was kept in the development outbox\. Send dana@colleagues\.test this link yourself/,
      );
      const link = /https:\/\/firm\.example\/accept-invitation#([A-Za-z0-9_-]{43})/.exec(invited.out);
      expect(link).not.toBeNull();
      // Kept in the outbox as the mail, the token's digest in the database, never the token.
      const held = await readHeldMail({ sqlitePath: join(dir, 'site.db'), secretsKeyFile: join(dir, 'secrets.key') });
      expect(held.map((m) => [m.to, m.text.includes(link![0])])).toEqual([['dana@colleagues.test', true]]);
      const { default: Sqlite } = await import('better-sqlite3');
      const db = new Sqlite(join(dir, 'site.db'), { readonly: true });
      const rows = db.prepare('select email, token_hash, invited_by from identity_invitations').all() as {
        email: string;
        token_hash: string;
        invited_by: string;
      }[];
      db.close();
      expect(rows).toEqual([{ email: 'dana@colleagues.test', token_hash: invitationDigest(link![1]!), invited_by: 'ana.partner' }]);

      expect((await run(['create', '--username', 'ana.partner', '--email', 'ana@firm.test', '--password', PASSWORD])).code).toBe(0);
      const taken = await run(['invite', '--email', 'ANA@firm.test']);
      expect(taken.code).toBe(1);
      expect(taken.out).toMatch(/ana@firm\.test already has an account: it cannot be invited/i);
      const cognito = await run(['invite', '--email', 'x@firm.test'], {
        COGNITO_USER_POOL_ID: 'us-west-2_x',
        COGNITO_REGION: 'us-west-2',
        COGNITO_CLIENT_ID: 'c',
      });
      expect(cognito.code).toBe(1);
      expect(cognito.out).toMatch(/With a Cognito user pool, invite from the AWS Cognito console/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // four Node processes, each loading the server's modules
});

for (const dialect of dialects) {
  describe(`admin admission: requests and invitations [${dialect}]`, () => {
    let database: TestDatabase;
    let identity: EmbeddedIdentity;
    let app: App;
    /** The injected clock: real time plus `offset` (moved, never waited for). */
    let offset = 0;
    const clock = { now: () => new Date(Date.now() + offset) };
    const codes = new Map<string, string>();
    const mail: IdentityMail[] = [];
    let delivery: MailOutcome = 'held';
    const audit: { msg: string; fields: Record<string, unknown> }[] = [];
    const log: Logger = { info: (msg, fields = {}) => void audit.push({ msg, fields }), warn: () => {}, error: () => {} };
    let serial = 0;
    const unique = (label: string) => `${label}-${++serial}`;

    async function send(method: string, path: string, options: { token?: string; body?: unknown; raw?: string; invitation?: string; target?: App } = {}) {
      const headers: Record<string, string> = {};
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.invitation !== undefined) headers[INVITATION_TOKEN_HEADER] = options.invitation;
      const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await (options.target ?? app).request(path, { method, headers, body }, { incoming: { socket: { remoteAddress: '203.0.113.50' } } });
      return { status: res.status, body: await res.json().catch(() => null) } as Answer;
    }
    const gateway = async (action: string, body: Record<string, unknown>) => {
      const res = await identity.call(action, { ClientId: identity.clientId, ...body }, { clientAddress: `198.51.100.${(serial % 200) + 1}` });
      // A code is stored and mailed just after the answer (decision 039): here, before the next step reads it.
      await identity.settled();
      return res as Answer;
    };
    async function signIn(username: string, password = PASSWORD) {
      const res = await gateway('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: username, PASSWORD: password } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.AuthenticationResult.AccessToken as string;
    }
    /** SPEC's sign-up flow through the service: sign up, then confirm with the mailed code. */
    async function signUpAndConfirm(username: string, email: string) {
      const up = await gateway('SignUp', { Username: username, Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: email }] });
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      return gateway('ConfirmSignUp', { Username: username, ConfirmationCode: codes.get(username) });
    }
    const admin = async () => {
      const username = unique('admin');
      await identity.admins.create({ username, email: `${username}@outside.test`, password: PASSWORD });
      return { username, token: await signIn(username) };
    };
    const userRow = async (username: string) => {
      const rows = await database.db.select().from(database.t.identityUsers);
      return rows.find((r) => r.username === username)!;
    };
    const invitationRows = () => database.db.select().from(database.t.identityInvitations);
    /** What a refused request must leave as it was. */
    const snapshot = async () =>
      JSON.stringify([
        await database.db.select().from(database.t.identityUsers),
        await invitationRows(),
        await database.db.select().from(database.t.identitySessions),
      ]);
    const tokenOf = (link: string) => new URL(link).hash.slice(1);
    async function invite(email: string, by: string) {
      const res = await send('POST', '/api/admin/admin-invitations', { token: by, body: { email } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: string; link: string | null; expiresAt: string; delivered: MailOutcome; superseded: number };
    }
    const accept = (token: string, username: string, password = PASSWORD) =>
      send('POST', '/api/identity/invitation/accept', { invitation: token, body: { username, password } });

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      identity = await startEmbeddedIdentity({ database, secrets: testSecrets, clock, allowlist, sendCode: (m) => void codes.set(m.username, m.code) });
      const invitations = embeddedInvitations({
        database,
        clock,
        siteUrl: 'https://firm.example',
        send: async (message) => {
          mail.push(message);
          return delivery;
        },
      });
      app = createApp(
        testDeps(database, {
          clock,
          log,
          verifier: identity.verifier(allowlist),
          identity: { userPoolId: identity.userPoolId, clientId: identity.clientId, region: null, embedded: true },
          embeddedIdentity: identity,
          adminDirectory: embeddedAdminDirectory(identity, allowlist, invitations),
        }),
      );
    });
    afterAll(async () => {
      await database?.drop();
    });
    beforeEach(() => {
      offset = 0;
      delivery = 'held';
    });

    describe('requests', () => {
      it('a confirmed sign-up on ADMIN_EMAILS gets 403 approval-pending from the admin API until an admin approves it, then 200', async () => {
        const name = unique('bea.associate');
        expect((await signUpAndConfirm(name, `${name}@firm.test`)).status).toBe(200);
        const row = await userRow(name);
        expect(row).toMatchObject({ status: 'CONFIRMED', emailVerified: true, isAdmin: false, emailKey: `${name}@firm.test` });
        expect(row.adminRequestedAt).toBeInstanceOf(Date);
        const token = await signIn(name);
        for (const path of [
          '/api/admin/session',
          '/api/admin/testimonials',
          '/api/admin/admins',
          '/api/admin/contact-submissions',
          '/api/admin/no-such-route',
        ]) {
          const res = await send('GET', path, { token });
          expect(res.status, path).toBe(403);
          expect(res.body, path).toMatchObject({
            code: 'approval-pending',
            error: 'Your request to be an admin is waiting for approval by an admin of the firm.',
          });
        }
        // A requester cannot approve themselves.
        expect((await send('POST', `/api/admin/admin-requests/${name}/approve`, { token })).status).toBe(403);

        const ana = await admin();
        const listed = await send('GET', '/api/admin/admin-requests', { token: ana.token });
        expect(listed.status).toBe(200);
        expect(listed.body.requests).toContainEqual({ username: name, email: `${name}@firm.test`, requestedAt: row.adminRequestedAt!.toISOString() });

        const approved = await send('POST', `/api/admin/admin-requests/${name}/approve`, { token: ana.token });
        expect(approved).toEqual({ status: 200, body: { username: name, outcome: 'approved' } });
        // At once, with the same token: the guard reads the user on every call.
        expect((await send('GET', '/api/admin/session', { token })).status).toBe(200);
        expect((await send('GET', '/api/admin/testimonials', { token })).status).toBe(200);
        expect(await userRow(name)).toMatchObject({ isAdmin: true, adminRequestedAt: null, enabled: true });
        expect((await send('GET', '/api/admin/admin-requests', { token: ana.token })).body.requests.map((r: { username: string }) => r.username)).not.toContain(
          name,
        );
        // Decided once: a second approval or a refusal now finds no request.
        expect((await send('POST', `/api/admin/admin-requests/${name}/approve`, { token: ana.token })).status).toBe(404);
        expect((await send('POST', `/api/admin/admin-requests/${name}/refuse`, { token: ana.token })).status).toBe(404);
        expect(audit).toContainEqual({ msg: 'admins: request approved', fields: { username: name, by: ana.username } });
      });

      it('refusing disables the account and signs it out; the address stays taken, so it cannot ask again', async () => {
        const name = unique('stranger');
        const address = `${name}@firm.test`;
        await signUpAndConfirm(name, address);
        const token = await signIn(name);
        const ana = await admin();
        const refused = await send('POST', `/api/admin/admin-requests/${name}/refuse`, { token: ana.token });
        expect(refused).toEqual({ status: 200, body: { username: name, outcome: 'refused' } });
        expect(await userRow(name)).toMatchObject({ enabled: false, isAdmin: false, adminRequestedAt: null });
        // Signed out at once, and cannot sign in again.
        expect((await send('GET', '/api/admin/session', { token })).status).toBe(401);
        const again = await gateway('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: name, PASSWORD } });
        expect(again.body).toMatchObject({ __type: 'NotAuthorizedException', message: 'User is disabled.' });
        // The same mailbox under another username (any case) cannot confirm a second account...
        const second = unique('stranger.again');
        const confirm = await signUpAndConfirm(second, address.toUpperCase());
        expect(confirm.body).toEqual({ __type: 'AliasExistsException', message: 'An account with the given email already exists.' });
        expect(await userRow(second)).toMatchObject({ status: 'UNCONFIRMED', emailKey: null, adminRequestedAt: null });
        // ...and cannot be invited.
        const invited = await send('POST', '/api/admin/admin-invitations', { token: ana.token, body: { email: address } });
        expect(invited.status).toBe(409);
        expect(await userRow(name)).toMatchObject({ enabled: false });
        expect(audit).toContainEqual({ msg: 'admins: request refused, account disabled', fields: { username: name, by: ana.username } });
      });

      it('an account that was an admin through ADMIN_EMAILS alone is a request now; members of the group stay admins', async () => {
        const legacy = unique('legacy');
        const member = unique('member');
        await identity.admins.create({ username: legacy, email: `${legacy}@firm.test`, password: PASSWORD });
        await identity.admins.create({ username: member, email: `${member}@firm.test`, password: PASSWORD });
        // As it was before requests: confirmed and verified on the list, outside the group, no request.
        const { eq } = await import('drizzle-orm');
        await database.db.update(database.t.identityUsers).set({ isAdmin: false, adminRequestedAt: null }).where(eq(database.t.identityUsers.username, legacy));
        const before = await send('GET', '/api/admin/session', { token: await signIn(legacy) });
        expect(before).toMatchObject({ status: 403, body: { code: 'approval-pending' } });
        expect((await userRow(legacy)).adminRequestedAt).toBeInstanceOf(Date);
        const ana = await admin();
        expect((await send('GET', '/api/admin/admin-requests', { token: ana.token })).body.requests.map((r: { username: string }) => r.username)).toContain(
          legacy,
        );
        expect((await send('GET', '/api/admin/session', { token: await signIn(member) })).status).toBe(200);
        // An address outside ADMIN_EMAILS, out of the group: a plain refusal, no request.
        const outsider = await admin();
        await identity.admins.remove(outsider.username);
        const plain = await send('GET', '/api/admin/session', { token: await signIn(outsider.username) });
        expect(plain.status).toBe(403);
        expect(plain.body.code).toBeUndefined();
        expect((await userRow(outsider.username)).adminRequestedAt).toBeNull();
      });

      it('a request is not the tokens’ to claim: a token edited to say admin is refused, and the group claim comes from the database', async () => {
        const name = unique('claims');
        await signUpAndConfirm(name, `${name}@firm.test`);
        const token = await signIn(name);
        const [h, p, s] = token.split('.');
        const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
        expect(claims['cognito:groups']).toBeUndefined();
        const edited = `${h}.${Buffer.from(JSON.stringify({ ...claims, 'cognito:groups': ['admin'] })).toString('base64url')}.${s}`;
        expect((await send('GET', '/api/admin/session', { token: edited })).status).toBe(401);
      });
    });

    describe('invitations', () => {
      it('an admin invites; the link (token in the fragment) is e-mailed, shown once when held, and only its digest is kept', async () => {
        const ana = await admin();
        const address = `${unique('colleague')}@elsewhere.test`;
        const created = await invite(address, ana.token);
        expect(created).toMatchObject({ email: address, delivered: 'held', superseded: 0 });
        expect(created.link).toMatch(/^https:\/\/firm\.example\/accept-invitation#[A-Za-z0-9_-]{43}$/);
        const token = tokenOf(created.link!);
        expect(Date.parse(created.expiresAt) - clock.now().getTime()).toBeGreaterThan(INVITATION_DAYS * DAY - 60_000);
        expect(Date.parse(created.expiresAt) - clock.now().getTime()).toBeLessThanOrEqual(INVITATION_DAYS * DAY);
        const message = mail.at(-1)!;
        expect(message.to).toBe(address);
        expect(message.text).toContain(created.link!);
        expect(message.text).toContain(`${ana.username} invited you`);
        // At rest: the digest, never the token.
        const dump = JSON.stringify(await invitationRows());
        expect(dump).not.toContain(token);
        expect(dump).toContain(invitationDigest(token));
        // Listed, with who invited and until when; the link is never listed.
        const list = await send('GET', '/api/admin/admin-invitations', { token: ana.token });
        expect(list.body.canInvite).toBe(true);
        const row = list.body.invitations.find((i: { email: string }) => i.email === address);
        expect(row).toEqual({ id: created.id, email: address, invitedBy: ana.username, expiresAt: created.expiresAt, createdAt: expect.any(String) });
        expect(JSON.stringify(list.body)).not.toContain(token);
        // Sent by e-mail: the answer carries no link.
        delivery = 'sent';
        const mailed = await invite(`${unique('mailed')}@elsewhere.test`, ana.token);
        expect(mailed).toMatchObject({ delivered: 'sent', link: null });
        expect(audit).toContainEqual({
          msg: 'admins: invitation sent',
          fields: { invitationId: created.id, email: address, by: ana.username, delivered: 'held', superseded: 0 },
        });
      });

      it('the holder sees the address, accepts once, and is a confirmed admin; the second acceptance is refused', async () => {
        const ana = await admin();
        const address = `${unique('Dana.Colleague')}@Elsewhere.test`;
        const { link } = await invite(address, ana.token);
        const token = tokenOf(link!);
        const seen = await send('GET', '/api/identity/invitation', { invitation: token });
        expect(seen).toMatchObject({ status: 200, body: { email: address.toLowerCase(), invitedBy: ana.username } });

        const username = unique('dana');
        const accepted = await accept(token, username);
        expect(accepted).toEqual({ status: 201, body: { username } });
        expect(await userRow(username)).toMatchObject({
          email: address.toLowerCase(),
          emailKey: address.toLowerCase(),
          emailVerified: true,
          status: 'CONFIRMED',
          enabled: true,
          isAdmin: true,
          adminRequestedAt: null,
        });
        expect((await userRow(username)).passwordHash).toMatch(/^scrypt\$/);
        const theirs = await signIn(username);
        expect((await send('GET', '/api/admin/session', { token: theirs })).body).toEqual({ username, email: address.toLowerCase(), groups: ['admin'] });
        expect((await send('GET', '/api/admin/admins', { token: ana.token })).body.admins.map((a: { username: string }) => a.username)).toContain(username);

        // Used: the same answer as any link that cannot be used, and nothing changes.
        const before = await snapshot();
        const second = await accept(token, unique('dana.again'));
        expect(second).toEqual({ status: 404, body: { error: INVITATION_UNUSABLE, requestId: expect.any(String) } });
        expect((await send('GET', '/api/identity/invitation', { invitation: token })).status).toBe(404);
        expect(await snapshot()).toEqual(before);
        const list = await send('GET', '/api/admin/admin-invitations', { token: ana.token });
        expect(list.body.invitations.map((i: { email: string }) => i.email)).not.toContain(address.toLowerCase());
      });

      it('expired (injected clock), revoked, unknown and malformed links all get the one answer, and change nothing', async () => {
        const ana = await admin();
        const expiring = tokenOf((await invite(`${unique('late')}@elsewhere.test`, ana.token)).link!);
        const revoked = await invite(`${unique('revoked')}@elsewhere.test`, ana.token);
        const stillGood = tokenOf((await invite(`${unique('ontime')}@elsewhere.test`, ana.token)).link!);
        const revoke = await send('DELETE', `/api/admin/admin-invitations/${revoked.id}`, { token: ana.token });
        expect(revoke).toEqual({ status: 200, body: { id: revoked.id } });
        expect((await send('DELETE', `/api/admin/admin-invitations/${revoked.id}`, { token: ana.token })).status).toBe(404);
        expect(audit).toContainEqual({ msg: 'admins: invitation revoked', fields: { invitationId: revoked.id, by: ana.username } });

        // A minute before the seven days are up, still good; a moment after, dead.
        offset = INVITATION_DAYS * DAY - 60_000;
        expect((await send('GET', '/api/identity/invitation', { invitation: stillGood })).status).toBe(200);
        expect((await accept(stillGood, unique('ontime'))).status).toBe(201);
        offset = INVITATION_DAYS * DAY + 1000;
        const before = await snapshot();
        const answers = [];
        for (const token of [expiring, tokenOf(revoked.link!), 'A'.repeat(43), '', 'short', `${expiring}x`, '../../etc/passwd', 'ü'.repeat(43)]) {
          for (const res of [await send('GET', '/api/identity/invitation', { invitation: token }), await accept(token, unique('nobody'))]) {
            answers.push({ status: res.status, error: res.body.error, keys: Object.keys(res.body).sort() });
          }
        }
        // No header at all.
        answers.push(await send('GET', '/api/identity/invitation').then((r) => ({ status: r.status, error: r.body.error, keys: Object.keys(r.body).sort() })));
        for (const answer of answers) expect(answer).toEqual({ status: 404, error: INVITATION_UNUSABLE, keys: ['error', 'requestId'] });
        expect(await snapshot()).toEqual(before);
        // Expired ones are not listed.
        const list = await send('GET', '/api/admin/admin-invitations', { token: await signIn(ana.username) });
        expect(list.body.invitations).toEqual([]);
      });

      it('two acceptances of one link at the same moment: one account, the other refused', async () => {
        const ana = await admin();
        for (let round = 0; round < 6; round++) {
          const token = tokenOf((await invite(`${unique('race')}@elsewhere.test`, ana.token)).link!);
          // Different usernames (both could be made) and, every other round, the same one.
          const names = round % 2 ? [unique('racer'), unique('racer')] : Array(2).fill(unique('twin'));
          const answers = await Promise.all(names.map((name) => accept(token, name)));
          const [won, lost] = [...answers].sort((a, b) => a.status - b.status);
          expect(won!.status, `round ${round}: ${JSON.stringify(answers)}`).toBe(201);
          // The loser finds the link used (the same answer as any unusable link); with the same
          // username it may instead find that name taken, if it looked after the winner committed.
          const lostWith = names[0] === names[1] ? [INVITATION_UNUSABLE, 'An account with this username already exists.'] : [INVITATION_UNUSABLE];
          expect(lostWith, `round ${round}: ${JSON.stringify(answers)}`).toContain(lost!.body.error);
          const made = (await database.db.select().from(database.t.identityUsers)).filter((u) => names.includes(u.username));
          expect(made, `round ${round}`).toHaveLength(1);
          const rows = (await invitationRows()).filter((i) => i.acceptedAt);
          expect(rows.filter((i) => i.tokenHash === `accepted:${made[0]!.id}`)).toHaveLength(1);
        }
      });

      it('an address that already has a confirmed account cannot be invited (409, any case); nothing is stored or sent', async () => {
        const ana = await admin();
        const confirmed = unique('taken');
        await signUpAndConfirm(confirmed, `${confirmed}@firm.test`);
        const sent = mail.length;
        const before = await snapshot();
        for (const email of [`${confirmed}@firm.test`, `${confirmed.toUpperCase()}@FIRM.TEST`, `${ana.username}@outside.test`]) {
          const res = await send('POST', '/api/admin/admin-invitations', { token: ana.token, body: { email } });
          expect(res.status, email).toBe(409);
          expect(res.body.error, email).toMatch(/already has an account: it cannot be invited/);
          expect(res.body.fields, email).toEqual({ email: 'This address already has an account.' });
        }
        expect(await snapshot()).toEqual(before);
        expect(mail.length).toBe(sent);
        // An unconfirmed sign-up does not hold the address: inviting it works, and its account wins.
        const unconfirmed = unique('unconfirmed');
        await gateway('SignUp', { Username: unconfirmed, Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: `${unconfirmed}@firm.test` }] });
        const { link } = await invite(`${unconfirmed}@firm.test`, ana.token);
        expect((await accept(tokenOf(link!), unique('invited'))).status).toBe(201);
        expect((await gateway('ConfirmSignUp', { Username: unconfirmed, ConfirmationCode: codes.get(unconfirmed) })).body.__type).toBe('AliasExistsException');
      });

      it('a taken username, a weak password or an address confirmed meanwhile leaves the invitation usable', async () => {
        const ana = await admin();
        const address = `${unique('patient')}@elsewhere.test`;
        const token = tokenOf((await invite(address, ana.token)).link!);
        const taken = await accept(token, ana.username.toUpperCase());
        expect(taken).toMatchObject({
          status: 409,
          body: { error: 'An account with this username already exists.', fields: { username: 'An account with this username already exists.' } },
        });
        const weak = await accept(token, unique('weak'), 'password123');
        expect(weak.status).toBe(400);
        expect(weak.body.fields.password).toMatch(/too common/);
        const named = unique('named');
        expect((await accept(token, named, `${named}-is-my-password`)).body.fields.password).toMatch(/must not contain the username/);
        expect((await accept(token, unique('x'), 'short')).body.fields).toEqual({ password: 'Password must be at least 8 characters' });
        expect((await accept(token, 'a b', PASSWORD)).status).toBe(400);
        // The form's checks answered: the link still works.
        expect((await accept(token, unique('patient'))).status).toBe(201);

        // Invited, then the address is confirmed through sign-up before the holder accepts.
        const racing = unique('raced');
        const raced = tokenOf((await invite(`${racing}@firm.test`, ana.token)).link!);
        await signUpAndConfirm(racing, `${racing}@firm.test`);
        const late = await accept(raced, unique('late'));
        expect(late).toMatchObject({ status: 409, body: { error: 'This address already has an account: sign in with it, or ask an admin of the firm.' } });
      });

      it('inviting an address again revokes its earlier link', async () => {
        const ana = await admin();
        const address = `${unique('twice')}@elsewhere.test`;
        const first = await invite(address, ana.token);
        const second = await invite(address.toUpperCase(), ana.token);
        expect(second.superseded).toBe(1);
        expect((await accept(tokenOf(first.link!), unique('first'))).status).toBe(404);
        expect((await accept(tokenOf(second.link!), unique('second'))).status).toBe(201);
      });

      it('only admins list, invite, revoke, and decide requests: 401 without a token, 403 for a requester; nothing changes', async () => {
        const requester = unique('hopeful');
        await signUpAndConfirm(requester, `${requester}@firm.test`);
        const token = await signIn(requester);
        const ana = await admin();
        const pendingOne = await invite(`${unique('pending')}@elsewhere.test`, ana.token);
        const before = await snapshot();
        const sent = mail.length;
        const routes: [string, string, unknown?][] = [
          ['GET', '/api/admin/admin-requests'],
          ['POST', `/api/admin/admin-requests/${requester}/approve`],
          ['POST', `/api/admin/admin-requests/${requester}/refuse`],
          ['GET', '/api/admin/admin-invitations'],
          ['POST', '/api/admin/admin-invitations', { email: 'sneaky@elsewhere.test' }],
          ['DELETE', `/api/admin/admin-invitations/${pendingOne.id}`],
        ];
        for (const [method, path, body] of routes) {
          expect((await send(method, path, { body })).status, `${method} ${path}`).toBe(401);
          expect((await send(method, path, { body, token: 'not-a-token' })).status, `${method} ${path}`).toBe(401);
          const res = await send(method, path, { body, token });
          expect(res.status, `${method} ${path}`).toBe(403);
          expect(res.body.code, `${method} ${path}`).toBe('approval-pending');
        }
        expect(await snapshot()).toEqual(before);
        expect(mail.length).toBe(sent);
      });

      it('the holder’s calls are rate-limited per client and their bodies bounded', async () => {
        const ana = await admin();
        const limited = createApp({
          ...testDeps(database, { clock, log, verifier: identity.verifier(allowlist) }),
          adminDirectory: embeddedAdminDirectory(
            identity,
            allowlist,
            embeddedInvitations({ database, clock, siteUrl: 'https://firm.example', send: async () => 'held' }),
          ),
          rateLimits: { rules: { ...noRateLimits, invitation: [{ max: 3, windowMs: 3_600_000 }] }, trustedProxies: [], store: createMemoryRateLimitStore() },
        });
        const token = tokenOf((await invite(`${unique('limited')}@elsewhere.test`, ana.token)).link!);
        const huge = JSON.stringify({ username: 'big', password: 'x'.repeat(5000) });
        const tooBig = await send('POST', '/api/identity/invitation/accept', { target: limited, invitation: token, raw: huge });
        expect(tooBig.status).toBe(413);
        expect((await send('GET', '/api/identity/invitation', { target: limited, invitation: token })).status).toBe(200);
        expect(
          (await send('POST', '/api/identity/invitation/accept', { target: limited, invitation: token, body: { username: 'x', password: 'y' } })).status,
        ).toBe(400);
        const refused = await send('POST', '/api/identity/invitation/accept', {
          target: limited,
          invitation: token,
          body: { username: unique('late'), password: PASSWORD },
        });
        expect(refused.status).toBe(429);
        expect((await userRow('late'))?.username).toBeUndefined();
        // The invitation was not taken by the refused call.
        expect((await send('GET', '/api/identity/invitation', { invitation: token })).status).toBe(200);
      });
    });
  });
}
