/**
 * Bounded guessing in the embedded identity service (docs/decisions/039), attacked as the review of
 * decision 014's service did, on SQLite and PostgreSQL, through the same gateway aws-amplify uses:
 * guesses at sign-up codes from many addresses, a code's tries across a quiet pause, a stranger
 * guessing the owner's password while the owner signs in, the order of work in ForgotPassword, and
 * one confirmed account per address. Time is an injected clock: nothing here waits or measures it.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../api/app.ts';
import { parseAllowlist } from '../../api/auth/admin-allowlist.ts';
import { createSecretBox } from '../../api/crypto/secret-box.ts';
import { startEmbeddedIdentity, type EmbeddedIdentity } from '../../api/identity/embedded-identity.ts';
import { DEVICE_COOKIE, GUESSING } from '../../api/identity/guessing.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/test-database.ts';
import { testDeps, testIntegrations } from '../support/test-deps.ts';

const PASSWORD = 'Harbor-Lantern-Quiet-42';
const allowlist = parseAllowlist('@firm.test');
const MINUTE = 60_000;

/** What the gateway answered: Cognito's error (`__type`, `message`) or the action's result. */
type Body = { __type?: string; message?: string; [member: string]: unknown };
type Answer = { status: number; body: Body; setCookie: string | null };
const outcome = (r: Answer) => (r.status === 200 ? 'ok' : (r.body.__type as string));

for (const dialect of dialects) {
  describe(`identity: bounded guessing [${dialect}]`, () => {
    let database: TestDatabase;
    let identity: EmbeddedIdentity;
    let app: App;
    // The clock stands still unless a test moves it: guesses made over a slow machine's real seconds
    // would otherwise earn spaced tries the test did not mean.
    let nowMs = Date.UTC(2031, 2, 3, 17, 0);
    const clock = { now: () => new Date(nowMs) };
    const secrets = createSecretBox(randomBytes(32));
    const codes = new Map<string, string[]>();
    const lastCode = (username: string) => codes.get(username)?.at(-1);

    async function gateway(action: string, body: Record<string, unknown>, from: string, cookie?: string): Promise<Answer> {
      const res = await app.request(
        '/api/identity/cognito',
        {
          method: 'POST',
          headers: {
            'content-type': 'application/x-amz-json-1.1',
            'x-amz-target': `AWSCognitoIdentityProviderService.${action}`,
            ...(cookie ? { cookie } : {}),
          },
          body: JSON.stringify({ ClientId: identity.clientId, ...body }),
        },
        { incoming: { socket: { remoteAddress: from } } },
      );
      // Codes are stored and mailed after the answer: wait for that, as a reader of the mail would.
      await identity.settled();
      return { status: res.status, body: (await res.json()) as Body, setCookie: res.headers.get('set-cookie') };
    }
    const signIn = (username: string, password: string, from: string, cookie?: string) =>
      gateway('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: username, PASSWORD: password } }, from, cookie);
    const signUp = (username: string, email: string, from: string) =>
      gateway('SignUp', { Username: username, Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: email }] }, from);
    const userRow = async (username: string) => {
      const { db, t } = database;
      return (await db.select().from(t.identityUsers)).find((u) => u.username === username);
    };
    /** A 6-digit code that is none of those sent to the user (a wrong guess for sure). */
    const wrongCode = (username: string, n: number) => {
      for (let i = n; ; i += 7919) {
        const guess = String(i % 1_000_000).padStart(6, '0');
        if (!codes.get(username)?.includes(guess)) return guess;
      }
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
        },
      });
      app = createApp(
        testDeps(database, {
          clock,
          verifier: identity.verifier(allowlist),
          identity: { userPoolId: identity.userPoolId, clientId: identity.clientId, region: null, embedded: true },
          embeddedIdentity: identity,
          // Served over https: the device cookie is Secure.
          integrations: testIntegrations({ siteUrl: 'https://firm.test' }),
        }),
      );
    });
    afterAll(async () => {
      await database?.drop();
    });

    it('30 addresses making 30 sign-ups and guessing their codes (630 guesses) get at most 100 wrong codes checked pool-wide', async () => {
      // The review's run: each address signs up one account on ADMIN_EMAILS and guesses its code 21
      // times, asking for a fresh code (fresh tries) after every 5 wrong ones.
      const ADDRESSES = 30;
      const GUESSES = 21;
      const answers: string[] = [];
      const start = nowMs;
      await Promise.all(
        Array.from({ length: ADDRESSES }, async (_, a) => {
          const from = `203.0.113.${a + 1}`;
          const username = `guess-${dialect}-${a}`;
          expect((await signUp(username, `${username}@firm.test`, from)).status).toBe(200);
          for (let g = 0; g < GUESSES; g++) {
            if (g > 0 && g % 5 === 0) await gateway('ResendConfirmationCode', { Username: username }, from);
            nowMs += 5; // 630 guesses over about 3 seconds, as measured
            answers.push(outcome(await gateway('ConfirmSignUp', { Username: username, ConfirmationCode: wrongCode(username, a * 1000 + g) }, from)));
          }
        }),
      );
      expect(answers).toHaveLength(ADDRESSES * GUESSES);
      const checked = answers.filter((a) => a === 'CodeMismatchException').length;
      // The pool's threshold, then a few spaced turns; everything else refused before any code was looked at.
      expect(checked).toBeGreaterThanOrEqual(GUESSING.poolCodes.free);
      expect(checked).toBeLessThanOrEqual(100);
      expect(new Set(answers.filter((a) => a !== 'CodeMismatchException'))).toEqual(new Set(['LimitExceededException']));
      for (let a = 0; a < ADDRESSES; a++) expect((await userRow(`guess-${dialect}-${a}`))?.status).toBe('UNCONFIRMED');
      // The pool's day is over: codes are checked again (an honest user's code goes through).
      nowMs = start + GUESSING.poolCodes.windowMs + GUESSING.poolCodes.maxDelayMs + MINUTE;
      const honest = `honest-${dialect}`;
      await signUp(honest, `${honest}@firm.test`, '198.51.100.200');
      expect((await gateway('ConfirmSignUp', { Username: honest, ConfirmationCode: lastCode(honest) }, '198.51.100.200')).status).toBe(200);
    }, 180_000); // 660 calls

    it('a code allows 5 wrong tries in its lifetime: a 16-minute pause and a sweep give no more; a new code has its own 5', async () => {
      await identity.admins.create({ username: `pause-${dialect}`, email: `pause-${dialect}@firm.test`, password: PASSWORD });
      const from = '198.51.100.31';
      const tries = async (username: string, code: (i: number) => string, n: number) => {
        const seen: string[] = [];
        for (let i = 0; i < n; i++)
          seen.push(
            outcome(await gateway('ConfirmForgotPassword', { Username: username, ConfirmationCode: code(i), Password: 'Fresh-Harbor-Password-8' }, from)),
          );
        return seen;
      };
      const run = async (username: string) => {
        await gateway('ForgotPassword', { Username: username }, from);
        const before = await tries(username, (i) => wrongCode(username, 400 + i), 5);
        // The review waited 905 s: the old count was forgotten after 15 quiet minutes.
        nowMs += 16 * MINUTE;
        await identity.sweep();
        const after = await tries(username, (i) => lastCode(username) ?? wrongCode(username, 500 + i), 2);
        return [...before, ...after];
      };
      const real = await run(`pause-${dialect}`);
      expect(real).toEqual([...Array(5).fill('CodeMismatchException'), 'LimitExceededException', 'LimitExceededException']);
      // The right code (its 6th and 7th try) changed nothing.
      expect((await signIn(`pause-${dialect}`, 'Fresh-Harbor-Password-8', from)).status).toBe(400);
      // An unknown username answers alike, try by try.
      expect(await run(`nobody-pause-${dialect}`)).toEqual(real);

      // A new code (a resend) has its own 5 tries; the right one within them works.
      nowMs += 2 * MINUTE; // past the send limit's spacing
      await gateway('ForgotPassword', { Username: `pause-${dialect}` }, from);
      const fresh = lastCode(`pause-${dialect}`)!;
      const again = await tries(`pause-${dialect}`, (i) => (i < 4 ? wrongCode(`pause-${dialect}`, 600 + i) : fresh), 5);
      expect(again).toEqual([...Array(4).fill('CodeMismatchException'), 'ok']);
      expect((await signIn(`pause-${dialect}`, 'Fresh-Harbor-Password-8', from)).status).toBe(200);

      // Sign-up codes too (24 hours: the old count allowed up to 480 guesses).
      const pending = `pending-${dialect}`;
      await signUp(pending, `${pending}@firm.test`, from);
      for (let pause = 0; pause < 3; pause++) {
        for (let i = 0; i < 2; i++) await gateway('ConfirmSignUp', { Username: pending, ConfirmationCode: wrongCode(pending, 700 + pause * 10 + i) }, from);
        nowMs += 16 * MINUTE;
      }
      expect(outcome(await gateway('ConfirmSignUp', { Username: pending, ConfirmationCode: lastCode(pending) }, from))).toBe('LimitExceededException');
      expect((await userRow(pending))?.status).toBe('UNCONFIRMED');

      // Resends stay limited: a burst of them sends the free ones and one spaced turn, then refuses.
      const sentBefore = codes.get(pending)!.length;
      const resends = [];
      for (let i = 0; i < 10; i++) resends.push(outcome(await gateway('ResendConfirmationCode', { Username: pending }, from)));
      expect(resends).toContain('LimitExceededException');
      expect(codes.get(pending)!.length - sentBefore).toBeLessThanOrEqual(GUESSING.codeSends.free + 1);
    });

    it('a dead code and an unknown username’s count are swept alike, a day after the code’s expiry', async () => {
      const real = `swept-${dialect}`;
      await identity.admins.create({ username: real, email: `${real}@firm.test`, password: PASSWORD });
      const from = '198.51.100.32';
      const tryOnce = async (username: string) =>
        outcome(
          await gateway('ConfirmForgotPassword', { Username: username, ConfirmationCode: wrongCode(username, 900), Password: 'Fresh-Harbor-Password-8' }, from),
        );
      const history = async (username: string) => {
        await gateway('ForgotPassword', { Username: username }, from);
        const seen = [];
        for (let i = 0; i < 6; i++) seen.push(await tryOnce(username));
        // Past the code's hour: still dead until housekeeping takes it, a day later.
        nowMs += 61 * MINUTE;
        await identity.sweep();
        seen.push(await tryOnce(username));
        return seen;
      };
      const realSeen = await history(real);
      expect(realSeen.slice(-2)).toEqual(['LimitExceededException', 'LimitExceededException']);
      expect(await history(`nobody-swept-${dialect}`)).toEqual(realSeen);
      nowMs += 24 * 60 * MINUTE + MINUTE;
      await identity.sweep();
      const user = (await userRow(real))!;
      const { db, t } = database;
      expect(await db.select().from(t.identityCodes).where(eq(t.identityCodes.userId, user.id))).toEqual([]);
      // Both counts gone alike: the next try is checked (and wrong) for both.
      expect([await tryOnce(real), await tryOnce(`nobody-swept-${dialect}`)]).toEqual(['CodeMismatchException', 'CodeMismatchException']);
    });

    it('the owner signs in every time while a stranger guesses their password from another address', async () => {
      const owner = `owner-${dialect}`;
      await identity.admins.create({ username: owner, email: `${owner}@firm.test`, password: PASSWORD });
      const home = '198.51.100.44';
      const stranger = '203.0.113.201';
      const start = nowMs;

      // The review's run: 4 wrong passwords a second for 40 s; the owner signs in every 3 s (no cookie).
      const strangerSaw = new Map<string, number>();
      const ownerSaw: number[] = [];
      for (let tick = 0; tick < 160; tick++) {
        nowMs += 250;
        const guess = await signIn(owner, `Stranger-Guess-${tick}`, stranger);
        const said = guess.body.message ?? 'ok';
        strangerSaw.set(said, (strangerSaw.get(said) ?? 0) + 1);
        if (tick % 12 === 11) ownerSaw.push((await signIn(owner, PASSWORD, home)).status);
      }
      expect(ownerSaw).toEqual(Array(13).fill(200));
      // The stranger was slowed: a few checked guesses, the rest refused unchecked.
      expect(strangerSaw.get('Incorrect username or password.')).toBeLessThanOrEqual(GUESSING.pair.free + 6);
      expect(strangerSaw.get('Password attempts exceeded')).toBeGreaterThan(140);

      // The owner's sign-in set the known-device cookie: signed, HttpOnly, Strict, Secure, gateway-only.
      const signedIn = await signIn(owner, PASSWORD, home);
      const setCookie = signedIn.setCookie!;
      expect(setCookie).toMatch(new RegExp(`^${DEVICE_COOKIE}=v1\\.[\\w-]+\\.\\d+\\.[\\w-]+;`));
      expect(setCookie).toContain('Path=/api/identity');
      expect(setCookie).toContain('HttpOnly');
      expect(setCookie).toContain('SameSite=Strict');
      expect(setCookie).toContain('Secure');
      const cookie = setCookie.split(';')[0]!;

      // A stranger spread over 40 addresses closes the username to unknown devices (the owner on a new
      // device is refused too), but not to the owner's known device, and never longer than its delays.
      nowMs = start + 60 * MINUTE;
      const spreadSaw: string[] = [];
      const withCookie: number[] = [];
      const withoutCookie: string[] = [];
      for (let tick = 0; tick < 96; tick++) {
        nowMs += 250;
        spreadSaw.push((await signIn(owner, `Botnet-Guess-${tick}`, `192.0.2.${tick % 40}`)).body.message ?? 'ok');
        if (tick % 12 === 11) {
          withCookie.push((await signIn(owner, PASSWORD, '198.51.100.45', cookie)).status);
          withoutCookie.push((await signIn(owner, PASSWORD, '198.51.100.46')).body.message ?? 'ok');
        }
      }
      expect(withCookie).toEqual(Array(8).fill(200));
      expect(withoutCookie.at(-1)).toBe('Password attempts exceeded');
      expect(spreadSaw.filter((m) => m === 'Incorrect username or password.').length).toBeLessThanOrEqual(GUESSING.user.free + 8);

      // A cookie only vouches for the username it names, and only as signed.
      const [name, value] = cookie.split('=') as [string, string];
      const [v, user, issued, mac] = value.split('.');
      const forgedName = `${name}=${v}.${Buffer.from(`someone-${dialect}`).toString('base64url')}.${issued}.${mac}`;
      const tampered = `${name}=${v}.${user}.${Number(issued) + 1}.${mac}`;
      for (const bad of [forgedName, tampered]) expect((await signIn(owner, PASSWORD, '198.51.100.47', bad)).body.message).toBe('Password attempts exceeded');
      expect(identity.devices.read(value)).toBe(owner);
      nowMs += 181 * 24 * 60 * MINUTE;
      expect(identity.devices.read(value)).toBeNull();
    }, 120_000); // some 450 sign-ins, a hundred of them hashing a password

    it('an IPv6 client guessing from many /64s of its /56 is held as one client', async () => {
      nowMs += 2 * 60 * MINUTE; // a fresh hour for the pool
      const seen: string[] = [];
      // A different username each time: only the client's own gates can stop it.
      for (let i = 0; i < GUESSING.addressWide.free + 6; i++)
        seen.push((await signIn(`v6-${dialect}-${i}`, 'Wrong-Password-1', `2001:db8:5:${(0x4400 + i).toString(16)}::1`)).body.message ?? 'ok');
      expect(seen.filter((m) => m === 'Incorrect username or password.').length).toBeLessThanOrEqual(GUESSING.addressWide.free + 1);
      expect(seen.at(-1)).toBe('Password attempts exceeded');
      // Its neighbouring /56 is another client.
      expect((await signIn(`v6-${dialect}-next`, 'Wrong-Password-1', '2001:db8:5:4500::1')).body.message).toBe('Incorrect username or password.');
    }, 180_000); // some 90 password hashes

    it('ForgotPassword answers before it stores or mails anything, for a real username as for an unknown one', async () => {
      // The same service on the same database, with the work after the answer held until the test runs it.
      const held: (() => Promise<void>)[] = [];
      const mailed: string[] = [];
      const service = await startEmbeddedIdentity({
        database,
        secrets,
        clock,
        allowlist,
        sendCode: (m) => void mailed.push(m.username),
        afterAnswer: (work) => void held.push(work),
      });
      const real = `forgot-${dialect}`;
      await service.admins.create({ username: real, email: `${real}@firm.test`, password: PASSWORD });
      const user = (await userRow(real))!;
      const { db, t } = database;
      const codeRows = async () => (await db.select().from(t.identityCodes)).filter((c) => c.userId === user.id);
      const standIn = async (username: string) =>
        (await db.select().from(t.identityThrottles)).find((r) => r.key === `tries:reset-password:${username}`) ?? null;
      const forgot = (username: string) =>
        service.call('ForgotPassword', { ClientId: service.clientId, Username: username }, { clientAddress: '198.51.100.60' });

      for (const username of [real, `nobody-forgot-${dialect}`]) {
        held.length = 0;
        const answer = await forgot(username);
        expect(answer.status).toBe(200);
        // Answered: one piece of work is waiting, the same for both, and nothing was stored or mailed yet.
        expect(held).toHaveLength(1);
        expect(await codeRows()).toEqual([]);
        expect(await standIn(username)).toBeNull();
        expect(mailed).toEqual([]);
        // After the answer: the tries start again for the username, real or not; a real one gets a code.
        await held[0]!();
        expect(await standIn(username)).toMatchObject({ failures: 0 });
        expect((await codeRows()).length).toBe(username === real ? 1 : 0);
        expect(mailed).toEqual(username === real ? [real] : []);
        mailed.length = 0;
        await db.delete(t.identityCodes).where(eq(t.identityCodes.userId, user.id));
      }

      // SignUp's code and a resend are stored after the answer too.
      held.length = 0;
      const signUpAnswer = await service.call(
        'SignUp',
        {
          ClientId: service.clientId,
          Username: `later-${dialect}`,
          Password: PASSWORD,
          UserAttributes: [{ Name: 'email', Value: `later-${dialect}@firm.test` }],
        },
        { clientAddress: '198.51.100.61' },
      );
      expect(signUpAnswer.status).toBe(200);
      expect(held).toHaveLength(1);
      const signedUp = (await userRow(`later-${dialect}`))!;
      const itsCodes = () => db.select().from(t.identityCodes).where(eq(t.identityCodes.userId, signedUp.id));
      expect(await itsCodes()).toEqual([]);
      await held[0]!();
      expect(await itsCodes()).toHaveLength(1);
      expect(mailed).toEqual([`later-${dialect}`]);
    });

    it('one confirmed account per address, whatever its case: a second confirmation is refused, and so is admin:create', async () => {
      const from = '198.51.100.80';
      const first = `first-${dialect}`;
      const second = `second-${dialect}`;
      // Sign-up tells nothing about the address: both are accepted.
      expect((await signUp(first, `Same.Person.${dialect}@firm.test`, from)).status).toBe(200);
      expect((await signUp(second, `same.person.${dialect}@FIRM.test`, from)).status).toBe(200);
      expect((await gateway('ConfirmSignUp', { Username: first, ConfirmationCode: lastCode(first) }, from)).status).toBe(200);
      expect((await userRow(first))?.emailKey).toBe(`same.person.${dialect}@firm.test`);

      const refused = await gateway('ConfirmSignUp', { Username: second, ConfirmationCode: lastCode(second) }, from);
      expect(refused).toMatchObject({ status: 400, body: { __type: 'AliasExistsException', message: 'An account with the given email already exists.' } });
      // Cognito's ForceAliasCreation would move the address to the new account: not here.
      const forced = await gateway('ConfirmSignUp', { Username: second, ConfirmationCode: lastCode(second), ForceAliasCreation: true }, from);
      expect(forced.body.__type).toBe('AliasExistsException');
      expect(await userRow(second)).toMatchObject({ status: 'UNCONFIRMED', emailVerified: false, emailKey: null });
      expect((await signIn(second, PASSWORD, from)).body.__type).toBe('UserNotConfirmedException');

      // The operator's admin:create refuses a taken address too, and sets the key of the one it makes.
      await expect(
        identity.admins.create({ username: `third-${dialect}`, email: `SAME.PERSON.${dialect}@firm.test`, password: 'Another-Harbor-Pass-9' }),
      ).rejects.toMatchObject({ type: 'AliasExistsException' });
      expect(await userRow(`third-${dialect}`)).toBeUndefined();
      await identity.admins.create({ username: `fourth-${dialect}`, email: `Fourth.${dialect}@Firm.test`, password: 'Another-Harbor-Pass-9' });
      expect((await userRow(`fourth-${dialect}`))?.emailKey).toBe(`fourth.${dialect}@firm.test`);

      // Two accounts of one address confirming at the same moment: one of them.
      const racers = [`racer-a-${dialect}`, `racer-b-${dialect}`];
      for (const racer of racers) await signUp(racer, `racer.${dialect}@firm.test`, from);
      const both = await Promise.all(racers.map((racer) => gateway('ConfirmSignUp', { Username: racer, ConfirmationCode: lastCode(racer) }, from)));
      expect(both.map(outcome).sort()).toEqual(['AliasExistsException', 'ok']);
      expect((await Promise.all(racers.map(userRow))).filter((u) => u?.status === 'CONFIRMED')).toHaveLength(1);
    });
  });
}
