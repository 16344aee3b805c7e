/**
 * Held mail at rest (docs/decisions/042), on SQLite and PostgreSQL: mail with nowhere to go is kept
 * in the shared database, each message sealed with the install's key, so the stored row holds no
 * code, manage link, address or name; every container reads and sends the same held mail; a copy is
 * kept 30 days (injected clock) and the store is bounded in count; the files an older version kept
 * in its outbox folder are imported once, sealed, and deleted, by the store and by a real server at
 * its start.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { startBackgroundWork } from '../../api/composition.ts';
import { createSecretBox } from '../../api/crypto/secret-box.ts';
import type { Logger } from '../../api/logger.ts';
import { createDevOutbox, HELD_MAIL_DAYS } from '../../api/mail/dev-outbox.ts';
import { bookings, NOW } from '../support/appointment-requests.ts';
import { codeIn, readHeldMail } from '../support/held-mail.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/mail-peers.ts';
import { serverDatabase, startServerProcess, type ServerDatabase, type ServerProcess } from '../support/server-process.ts';
import { ADMIN_TOKEN, forEachDialect, testDeps, type TestContext } from '../support/test-app.ts';

const FIRM_INBOX = 'intake@firm.example';
const DAY = 24 * 60 * 60 * 1000;

let smtp: SmtpPeer;
beforeAll(async () => {
  smtp = await startSmtpPeer();
});
afterAll(async () => {
  await smtp?.close();
});

/** Weekday slots from Monday 3 March 2031 on, each booked by a visitor of their own. */
let visitors = 0;
const { book } = bookings('2031-03-03', {
  times: ['10:00', '14:00'],
  body: () => ({ email: `held.visitor${++visitors}@example.com`, firstName: 'Ximena', lastName: `Okonkwo-Held ${visitors}` }),
});

const storedRows = (ctx: TestContext) => ctx.database.db.select().from(ctx.database.t.outboxMessages);

forEachDialect(
  'held mail',
  (ctx) => {
    beforeEach(async () => {
      const { db, t } = ctx().database;
      await db.delete(t.outboxMessages);
      await db.delete(t.deliveries);
      await db.delete(t.emailSettings);
      ctx().clock.set(NOW);
      smtp.reset();
    });

    it('seals each held message: the stored row holds no code, manage link, address or name, and another key opens nothing', async () => {
      // A booking with no email setting: the visitor's confirmation (with the manage link) and the firm's notification are held.
      const booked = await book(ctx());
      const token = (booked as unknown as { manageToken: string }).manageToken;
      expect(await ctx().background.runDeliveries()).toBe(2);
      // A sign-up code, held as the embedded identity service holds it.
      const { startIdentity } = await import('../../api/identity/identity.ts');
      const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
      const identity = await startIdentity({
        env: { NODE_ENV: 'production', ADMIN_EMAILS: '@firm.example' } as Parameters<typeof startIdentity>[0]['env'],
        database: ctx().database,
        secrets: ctx().deps.secrets,
        clock: ctx().clock,
        log: quiet,
        outbox: ctx().deps.outbox,
      });
      const username = `sealed-${ctx().dialect}-${Date.now()}`;
      const email = `${username}@firm.example`;
      const signUp = await identity.embedded!.call(
        'SignUp',
        { ClientId: identity.info.clientId, Username: username, Password: 'Harbor-Lantern-Quiet-42', UserAttributes: [{ Name: 'email', Value: email }] },
        { clientAddress: '198.51.100.7' },
      );
      expect(signUp.status).toBe(200);
      await expect.poll(async () => (await ctx().deps.outbox.list()).filter((m) => m.to === email).length).toBe(1);

      // With the key, everything is there (so what follows is not looking for text that was never held).
      const held = await ctx().deps.outbox.list();
      const confirmation = held.find((m) => m.to === booked.email)!;
      expect(confirmation.text).toContain(token);
      expect(confirmation.text).toContain(booked.firstName);
      const notification = held.find((m) => m.to === FIRM_INBOX)!;
      expect(`${notification.subject}\n${notification.text}`).toContain(booked.lastName);
      expect(notification.text).toContain(booked.email);
      const code = codeIn(held.find((m) => m.to === email)!.text)!;
      expect(code).toMatch(/^\d{6}$/);

      // Without it, none of it: read straight from the table.
      const rows = await storedRows(ctx());
      expect(rows).toHaveLength(3);
      const stored = JSON.stringify(rows);
      for (const secret of [token, booked.email, booked.lastName, booked.firstName, email, username, code, 'manage-booking', 'consultation'])
        expect(stored, secret).not.toContain(secret);
      for (const row of rows) expect(row.sealed).toMatch(/^sealed:v1\./);
      // Another install's key (a copied database without the key) opens nothing.
      const stranger = createDevOutbox({ database: ctx().database, secrets: createSecretBox(randomBytes(32)), clock: ctx().clock });
      expect(await stranger.list()).toEqual([]);
      // Nor does moving a sealed message onto another row (each is sealed for its own row).
      const [first, second] = rows;
      await ctx().database.db.update(ctx().database.t.outboxMessages).set({ sealed: first!.sealed }).where(eq(ctx().database.t.outboxMessages.id, second!.id));
      expect((await ctx().deps.outbox.list()).map((m) => m.id)).not.toContain(second!.id);
    });

    it('is one store for every container: a second instance lists what the first held, sends it once e-mail is configured there, and the held copies go', async () => {
      const booked = await book(ctx());
      expect(await ctx().background.runDeliveries()).toBe(2);
      const heldHere = await ctx().deps.outbox.list();
      expect(heldHere.map((m) => m.to).sort()).toEqual([booked.email, FIRM_INBOX].sort());

      // Another container on the same database (its own outbox object, log and app), started after.
      const other = testDeps(ctx().database, { clock: ctx().clock, integrations: ctx().deps.integrations });
      const app = createApp(other);
      const work = startBackgroundWork(other, { schedule: false });
      const admin = async (method: string, path: string, body?: unknown) => {
        const res = await app.request(path, {
          method,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: await res.json() };
      };
      try {
        const listed = await admin('GET', '/api/admin/email-outbox');
        expect(listed.status).toBe(200);
        expect((listed.body as { id: string }[]).map((m) => m.id).sort()).toEqual(heldHere.map((m) => m.id).sort());
        expect(await admin('GET', '/api/admin/email-outbox/summary')).toMatchObject({
          status: 200,
          body: { messages: 2, oldestAt: NOW, keptDays: HELD_MAIL_DAYS },
        });

        // Configured there, and sent from there.
        const config = { host: '127.0.0.1', port: smtp.port, secure: false, auth: { user: smtp.user, pass: smtp.pass }, from_email: 'office@firm.example' };
        expect((await admin('POST', '/api/admin/email-settings', { provider: 'smtp', isActive: true, config: JSON.stringify(config) })).status).toBe(201);
        expect(await admin('POST', '/api/admin/email-settings/send-held')).toMatchObject({ status: 200, body: { queued: 2 } });
        expect(await work.runDeliveries()).toBe(2);
        expect(smtp.to(booked.email)).toHaveLength(1);
        expect(smtp.to(FIRM_INBOX)).toHaveLength(1);

        // Sent: the held copies are gone, for both containers.
        expect(await ctx().deps.outbox.list()).toEqual([]);
        expect((await admin('GET', '/api/admin/email-outbox')).body).toEqual([]);
        expect(await ctx().admin('GET', '/api/admin/email-outbox/summary')).toMatchObject({ body: { messages: 0, oldestAt: null } });
        const { db, t } = ctx().database;
        const ids = heldHere.map((m) => m.deliveryId!);
        expect((await db.select().from(t.deliveries).where(inArray(t.deliveries.id, ids))).map((d) => d.status)).toEqual(['sent', 'sent']);
      } finally {
        await work.stop();
      }
    });

    it(`keeps a held copy ${HELD_MAIL_DAYS} days: the sweep deletes older ones, and the delivery stays held to be sent`, async () => {
      const booked = await book(ctx());
      await ctx().background.runDeliveries();
      const later = new Date(Date.parse(NOW) + 20 * DAY);
      ctx().clock.set(later);
      await ctx().deps.outbox.deliver({ to: 'late@example.com', subject: 'Your verification code', text: 'Your verification code is 000111.' });

      // A minute short of 30 days: nothing goes.
      ctx().clock.set(new Date(Date.parse(NOW) + HELD_MAIL_DAYS * DAY - 60_000));
      expect(await ctx().deps.outbox.sweep()).toEqual({ expired: 0, overflow: 0 });
      expect(await ctx().deps.outbox.list()).toHaveLength(3);

      // A minute past: the booking's two copies go, the later message stays.
      ctx().clock.set(new Date(Date.parse(NOW) + HELD_MAIL_DAYS * DAY + 60_000));
      expect(await ctx().deps.outbox.sweep()).toEqual({ expired: 2, overflow: 0 });
      expect((await ctx().deps.outbox.list()).map((m) => m.to)).toEqual(['late@example.com']);
      expect(await ctx().admin('GET', '/api/admin/email-outbox/summary')).toMatchObject({ body: { messages: 1, oldestAt: later.toISOString() } });
      // The truth about the booking's mail is its deliveries: still held, for Send held messages.
      const { db, t } = ctx().database;
      const deliveries = await db.select().from(t.deliveries).where(eq(t.deliveries.appointmentId, booked.id));
      expect(deliveries.map((d) => d.status)).toEqual(['held', 'held']);
    });

    it('keeps at most the newest copies: a flood of held mail is trimmed as it is held, and by the sweep', async () => {
      const small = createDevOutbox({ database: ctx().database, secrets: ctx().deps.secrets, clock: ctx().clock, limits: { maxMessages: 3, trimEvery: 2 } });
      for (let i = 1; i <= 7; i++) await small.deliver({ to: `flood${i}@example.com`, subject: `Flood ${i}`, text: 'x' });
      // Trimmed to 3 at the 6th, then one more held.
      expect((await small.list()).map((m) => m.subject)).toEqual(['Flood 4', 'Flood 5', 'Flood 6', 'Flood 7']);
      expect(await small.sweep()).toEqual({ expired: 0, overflow: 1 });
      expect((await small.list()).map((m) => m.subject)).toEqual(['Flood 5', 'Flood 6', 'Flood 7']);
      expect(await small.summary()).toMatchObject({ messages: 3 });
    });

    it('imports the files an older version kept in its outbox folder: sealed, then deleted; a second import stores nothing twice', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'firm-outbox-'));
      const deliveryId = crypto.randomUUID();
      const manageLink = 'https://www.example-firm.com/manage-booking#0f4c1a2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b.1924000000.secret-mac-value';
      const confirmation = {
        id: '2031-02-27T10-00-00-000Z-000001-aaaaaaaa',
        to: 'imported.visitor@example.com',
        subject: 'Your consultation with Pacific Crest Law Group',
        text: `Dear Imelda Quintanilla, manage it here: ${manageLink}`,
        deliveryId,
        createdAt: new Date(Date.parse(NOW) - 2 * DAY).toISOString(),
      };
      const code = {
        to: 'imported.admin@firm.example',
        subject: 'Your verification code',
        text: 'Your verification code is 654321.',
        createdAt: new Date(Date.parse(NOW) - DAY).toISOString(),
      };
      const ancient = { to: 'old@example.com', subject: 'Old', text: 'from long ago', createdAt: new Date(Date.parse(NOW) - 40 * DAY).toISOString() };
      writeFileSync(join(dir, `${confirmation.id}.json`), JSON.stringify(confirmation, null, 2));
      writeFileSync(join(dir, '2031-02-28T10-00-00-000Z-000002-bbbbbbbb.json'), JSON.stringify(code));
      writeFileSync(join(dir, '2031-01-01T10-00-00-000Z-000003-cccccccc.json'), JSON.stringify(ancient));
      // Half-written: kept whole, sealed; and a temporary file whose writing never finished.
      const half = join(dir, '2031-02-28T11-00-00-000Z-000004-dddddddd.json');
      writeFileSync(half, '{"to":"intake@firm.example","subject":"New contact message: Half');
      // Held when its file was last written.
      utimesSync(half, new Date(Date.parse(NOW) - DAY / 2), new Date(Date.parse(NOW) - DAY / 2));
      writeFileSync(join(dir, '2031-02-28T12-00-00-000Z-000005-eeeeeeee.json.tmp'), '{"to":"x@example.com","text":"Your verification code is 999777');

      expect(await ctx().deps.outbox.importFiles(dir)).toEqual({ imported: 4, deleted: 5 });
      expect(existsSync(dir)).toBe(false);
      const stored = JSON.stringify(await storedRows(ctx()));
      for (const secret of ['654321', 'secret-mac-value', 'Quintanilla', 'imported.visitor', 'New contact message', '999777'])
        expect(stored, secret).not.toContain(secret);

      const held = await ctx().deps.outbox.list();
      // In the order they were held, with the times they were held.
      expect(held.map((m) => [m.to, m.createdAt])).toEqual([
        [ancient.to, ancient.createdAt],
        [confirmation.to, confirmation.createdAt],
        [code.to, code.createdAt],
        ['', new Date(Date.parse(NOW) - DAY / 2).toISOString()],
      ]);
      expect(held[1]).toMatchObject({ subject: confirmation.subject, text: confirmation.text, deliveryId });
      expect(held[3]).toMatchObject({ subject: '(an outbox file that could not be read)', text: expect.stringContaining('New contact message: Half') });
      // The start's sweep takes what is past its 30 days.
      expect(await ctx().deps.outbox.sweep()).toEqual({ expired: 1, overflow: 0 });

      // A file imported again (a crash after its row was stored, before it was deleted): stored once.
      mkdirSync(dir);
      writeFileSync(join(dir, `${confirmation.id}.json`), JSON.stringify(confirmation, null, 2));
      expect(await ctx().deps.outbox.importFiles(dir)).toEqual({ imported: 0, deleted: 1 });
      expect(await ctx().deps.outbox.list()).toHaveLength(3);
      // No folder at all: nothing to do.
      expect(await ctx().deps.outbox.importFiles(dir)).toEqual({ imported: 0, deleted: 0 });
    });
  },
  { integrations: { firmNotificationEmail: FIRM_INBOX, siteUrl: 'https://www.example-firm.com' } },
);

describe.each(['sqlite', 'postgres'] as const)('held mail files from before, at a real server’s start (%s)', (dialect) => {
  let database: ServerDatabase;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await database?.drop();
  });

  it('imports OUTBOX_DIR into the database, sealed, deletes the files, and says so in the log', async () => {
    database = await serverDatabase(dialect);
    const dir = database.env.OUTBOX_DIR!;
    mkdirSync(dir, { recursive: true });
    const createdAt = new Date(Date.now() - DAY).toISOString();
    writeFileSync(
      join(dir, 'a.json'),
      JSON.stringify({ to: 'kept.client@example.com', subject: 'Your consultation', text: 'Manage it: https://x.example/manage-booking#tok-123', createdAt }),
    );
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ to: 'kept.admin@firm.example', subject: 'Your verification code', text: 'Code 246810.', createdAt }));
    server = await startServerProcess({ ...database.env, LOG_QUIET: 'false' });
    const line = await server.waitForLine((l) => l.includes('held mail: the outbox files from before'));
    expect(JSON.parse(line)).toMatchObject({ dir, imported: 2, deleted: 2 });
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);

    const store = {
      sqlitePath: database.env.SQLITE_PATH || undefined,
      databaseUrl: database.env.DATABASE_URL || undefined,
      secretsKeyFile: database.env.SECRETS_KEY_FILE!,
    };
    expect((await readHeldMail(store)).map((m) => [m.to, m.text])).toEqual([
      ['kept.client@example.com', 'Manage it: https://x.example/manage-booking#tok-123'],
      ['kept.admin@firm.example', 'Code 246810.'],
    ]);
    const opened = await database.open();
    expect(JSON.stringify(await opened.db.select().from(opened.t.outboxMessages))).not.toMatch(/tok-123|246810|kept\./);
  }, 60_000);
});
