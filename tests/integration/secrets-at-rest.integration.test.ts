/**
 * Integration secrets at rest (docs/decisions/015), on SQLite and PostgreSQL: every secret of every
 * kind of config is sealed in the database (read here straight from the tables), still works end to
 * end against the local peers (SMTP login, SendGrid key, signed webhook, Google and Microsoft token
 * grants, Calendly signature, a keyed feed), is masked in every GET unless its template names the
 * field public, fails closed when tampered with, and is re-sealed by `npm run secrets:rotate`.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { backgroundFetchesSettled } from '../../api/blog-sources/blog-source-fetcher.ts';
import { createSecretBox, isSealed, type SecretBox } from '../../api/crypto/secret-box.ts';
import { startBackgroundWork } from '../../api/composition.ts';
import { configIsCurrent, fieldIsCurrent, openConfig } from '../../api/crypto/sealed-config.ts';
import { configKind } from '../../api/crypto/secret-masking.ts';
import { runRotate } from '../../scripts/secrets-rotate.ts';
import { bookings, NOW, visitorBooking } from '../support/appointment-requests.ts';
import { startCalendarFakes, timestampedSignature, verifyTimestampedSignature } from '../support/calendar-fakes.ts';
import { FEED_API_KEY, feedPaths, startFeedServer } from '../support/feed-server.ts';
import { startSendgridReceiver, startSmtpPeer } from '../support/mail-peers.ts';
import { ADMIN_TOKEN, countRows, forEachDialect, testDeps, type TestContext } from '../support/test-app.ts';

/** Every secret configured in this file: none may sit in a row in clear text, nor come back from a GET. */
const S = {
  calendlyToken: 'calendly-pat-secret-0001-aaaa',
  calendlySigning: 'calendly-signing-secret-0002-bbbb',
  googleSecret: 'GOCSPX-google-secret-0003-cccc',
  googleRefresh: '1//google-refresh-secret-0004-dddd',
  outlookSecret: 'outlook~secret~0005~eeee',
  customKey: 'custom-webhook-signing-0006-ffff',
  customConfig: 'custom-config-secret-0007-gggg',
  smtpPass: 'smtp-password-secret-0008-hhhh',
  sendgridKey: 'SG.sendgrid-secret-0009-iiii',
  feedKey: FEED_API_KEY,
  feedHeader: 'Bearer feed-header-secret-0010-jjjj',
  // The review's finding: fields whose names look harmless.
  auth: 'auth-field-secret-0011-kkkk',
  x: 'x-field-secret-0012-llll',
  nested: 'nested-unknown-secret-0013-mmmm',
};

const [smtp, sendgrid, feeds, fakes] = await Promise.all([
  startSmtpPeer({ pass: S.smtpPass }),
  startSendgridReceiver(),
  startFeedServer(),
  startCalendarFakes({
    google: { credentials: { clientId: 'google-client.apps.example.com', clientSecret: S.googleSecret, refreshToken: S.googleRefresh } },
    microsoft: { credentials: { tenantId: 'firm-tenant', clientId: 'outlook-client-id', clientSecret: S.outlookSecret } },
  }),
]);
afterAll(async () => {
  await Promise.all([smtp.close(), sendgrid.close(), feeds.stop(), fakes.close()]);
});
const integrations = { ...fakes.settings, sendgridApiBase: `${sendgrid.url}/sendgrid`, firmNotificationEmail: 'intake@firm.example' };

const { freeSlot, book } = bookings('2030-09-02');

const configs = {
  calendly: { username: 'firm-calendar', personal_access_token: S.calendlyToken, webhook_signing_key: S.calendlySigning },
  google: {
    client_id: 'google-client.apps.example.com',
    client_secret: S.googleSecret,
    redirect_uri: 'https://firm.example.com/oauth/google',
    calendar_id: 'primary',
    refresh_token: S.googleRefresh,
  },
  outlook: { client_id: 'outlook-client-id', client_secret: S.outlookSecret, tenant_id: 'firm-tenant', user_email: 'calendar@firm.example.com' },
  custom: { auth: S.auth, x: S.x, extra: { inner: { deep: [S.nested, 42] } } },
  smtp: {
    host: '127.0.0.1',
    port: smtp.port,
    secure: false,
    auth: { user: smtp.user, pass: S.smtpPass },
    from_email: 'office@firm.example',
    from_name: 'The Firm',
  },
  sendgrid: { api_key: S.sendgridKey, from_email: 'office@firm.example', from_name: 'The Firm' },
  feed: { apiKey: S.feedKey, headers: { Authorization: S.feedHeader }, itemsPath: null, x: S.x },
};

const json = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

async function calendar(ctx: TestContext, body: { provider: string; config: unknown; webhookUrl?: string; apiKey?: string }, { activate = true } = {}) {
  const res = await ctx.admin('POST', '/api/admin/calendar-settings', { ...body, config: json(body.config) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  if (activate) expect((await ctx.admin('PUT', `/api/admin/calendar-settings/${res.body.id}/activate`)).status).toBe(200);
  return res.body as { id: string; config: string; apiKey: string | null };
}

async function email(ctx: TestContext, provider: 'smtp' | 'sendgrid', config: unknown) {
  const res = await ctx.admin('POST', '/api/admin/email-settings', { provider, config: json(config) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; config: string };
}

async function blogSource(ctx: TestContext, config: unknown, name = 'Keyed feed') {
  const res = await ctx.admin('POST', '/api/admin/blog-sources', { name, url: feeds.url(feedPaths.jsonProtected), type: 'api', config: json(config) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await backgroundFetchesSettled(ctx.deps);
  return res.body as { id: string; config: string };
}

/** Every integration row, straight from the tables. */
async function rawRows(ctx: TestContext) {
  const { db, t } = ctx.database;
  return { calendar: await db.select().from(t.calendarSettings), email: await db.select().from(t.emailSettings), blog: await db.select().from(t.blogSources) };
}

function expectNoSecretIn(text: string, what: string) {
  for (const [name, secret] of Object.entries(S)) expect(text, `${name} in ${what}`).not.toContain(secret);
}

const contactMessage = (ctx: TestContext) =>
  ctx.call('POST', '/api/contact', {
    body: { firstName: 'Ana', lastName: 'Ruiz', email: 'ana.ruiz@example.com', phone: '', practiceArea: 'estate-planning', message: 'A living trust, please.' },
  });

async function deliveryLog(ctx: TestContext, query: string) {
  const res = await ctx.admin('GET', `/api/admin/deliveries?${query}`);
  expect(res.status).toBe(200);
  return res.body as { purpose: string; status: string; attempts: number; lastError: string | null }[];
}

/** A sealed value with one character of its ciphertext changed. */
const tamper = (sealed: string) => sealed.slice(0, -6) + (sealed.at(-6) === 'A' ? 'B' : 'A') + sealed.slice(-5);

/** Changes the sealed value at `path` of a stored config. */
function tamperAt(config: string, path: string[]): string {
  const tree = JSON.parse(config);
  let node = tree;
  for (const key of path.slice(0, -1)) node = node[key];
  const last = path.at(-1)!;
  expect(isSealed(node[last]), `${path.join('.')} is sealed`).toBe(true);
  node[last] = tamper(node[last]);
  return JSON.stringify(tree);
}

const calendlyPath = '/api/integrations/calendly/webhook';
let invitees = 0;
function calendlyWebhook(ctx: TestContext, key: string) {
  const n = ++invitees;
  const body = JSON.stringify({
    event: 'invitee.created',
    payload: {
      uri: `https://api.calendly.com/scheduled_events/SEALED${n}/invitees/INV${n}`,
      email: 'jordan.reyes@example.com',
      name: 'Jordan Reyes',
      scheduled_event: {
        name: '30 Minute Consultation',
        start_time: `2030-10-${String(7 + n).padStart(2, '0')}T16:00:00.000000Z`,
        end_time: `2030-10-${String(7 + n).padStart(2, '0')}T16:30:00.000000Z`,
      },
    },
  });
  const headers = { 'Calendly-Webhook-Signature': timestampedSignature(key, body, Math.floor(Date.parse(NOW) / 1000)) };
  return ctx.call('POST', calendlyPath, { rawBody: body, headers });
}

forEachDialect(
  'secrets at rest',
  (ctx) => {
    beforeEach(async () => {
      const { db, t } = ctx().database;
      await db.delete(t.deliveries);
      await db.delete(t.emailSettings);
      ctx().clock.set(NOW);
      smtp.reset();
      sendgrid.reset();
      fakes.webhook.resetRequests();
      fakes.google.resetRequests();
      fakes.microsoft.resetRequests();
    });

    it('seals every secret of every kind of config: the rows hold none of them in clear text', async () => {
      await calendar(ctx(), { provider: 'calendly', config: configs.calendly }, { activate: false });
      await calendar(ctx(), { provider: 'google', config: { ...configs.google, auth: S.auth } }, { activate: false });
      await calendar(ctx(), { provider: 'outlook', config: configs.outlook }, { activate: false });
      await calendar(ctx(), { provider: 'custom', config: configs.custom, webhookUrl: fakes.webhookUrl('/sealed'), apiKey: S.customKey }, { activate: false });
      await calendar(
        ctx(),
        { provider: 'custom', config: `free text, not JSON: ${S.customConfig}`, webhookUrl: fakes.webhookUrl('/free'), apiKey: S.customKey },
        { activate: false },
      );
      await blogSource(ctx(), configs.feed);
      // One email setting at a time: each kind is read back before the next replaces it.
      for (const [provider, config] of [
        ['smtp', configs.smtp],
        ['sendgrid', configs.sendgrid],
      ] as const) {
        await email(ctx(), provider, config);
        const rows = await rawRows(ctx());
        expect(rows.email).toHaveLength(1);
        expectNoSecretIn(JSON.stringify(rows), `the rows (${provider})`);
      }

      const rows = await rawRows(ctx());
      expect(rows.calendar).toHaveLength(5);
      // Public fields stay readable for an operator; the secrets are sealed in place.
      const google = JSON.parse(rows.calendar.find((r) => r.provider === 'google')!.config);
      expect(google).toMatchObject({ client_id: configs.google.client_id, calendar_id: 'primary', redirect_uri: configs.google.redirect_uri });
      for (const key of ['client_secret', 'refresh_token', 'auth']) expect(isSealed(google[key]), key).toBe(true);
      expect(JSON.parse(rows.email[0]!.config)).toMatchObject({ from_email: 'office@firm.example', api_key: expect.stringMatching(/^sealed:v1\./) });
      for (const row of rows.calendar.filter((r) => r.provider === 'custom')) expect(isSealed(row.apiKey)).toBe(true);
      expect(isSealed(rows.calendar.find((r) => r.webhookUrl?.endsWith('/free'))!.config)).toBe(true);
    });

    it('sends mail with the sealed SMTP password and SendGrid key', async () => {
      await email(ctx(), 'smtp', configs.smtp);
      expect((await contactMessage(ctx())).status).toBe(201);
      expect(await ctx().background.runDeliveries()).toBe(1);
      expect(smtp.messages).toHaveLength(1);
      expect(smtp.messages[0]!.user).toBe(smtp.user);
      expect(smtp.refusals).toEqual([]);

      await email(ctx(), 'sendgrid', configs.sendgrid);
      expect((await contactMessage(ctx())).status).toBe(201);
      expect(await ctx().background.runDeliveries()).toBe(1);
      expect(sendgrid.requests).toHaveLength(1);
      expect(sendgrid.requests[0]!.headers.authorization).toBe(`Bearer ${S.sendgridKey}`);
    });

    it('signs webhooks with the sealed API key and calls Google and Microsoft with the sealed credentials', async () => {
      await calendar(ctx(), { provider: 'custom', config: configs.custom, webhookUrl: fakes.webhookUrl('/signed'), apiKey: S.customKey });
      const { id: first } = await book(ctx());
      await ctx().background.runDeliveries();
      const [post] = fakes.webhook.at('/webhook/signed');
      expect(verifyTimestampedSignature(post!.headers['x-firm-signature'], post!.body, S.customKey)).toBe(true);
      expect((await deliveryLog(ctx(), `channel=calendar&appointmentId=${first}`))[0]).toMatchObject({ status: 'sent' });

      // The fakes outlive a dialect's suite: count what this test adds.
      const events = { google: fakes.google.events.size, microsoft: fakes.microsoft.events.size };
      await calendar(ctx(), { provider: 'google', config: configs.google });
      await book(ctx());
      await ctx().background.runDeliveries();
      expect(fakes.google.tokenRequests()[0]!.form()).toMatchObject({ client_secret: S.googleSecret, refresh_token: S.googleRefresh });
      expect(fakes.google.events.size).toBe(events.google + 1);

      await calendar(ctx(), { provider: 'outlook', config: configs.outlook });
      await book(ctx());
      await ctx().background.runDeliveries();
      expect(fakes.microsoft.tokenRequests()[0]!.form()).toMatchObject({ client_secret: S.outlookSecret });
      expect(fakes.microsoft.events.size).toBe(events.microsoft + 1);
    });

    it('checks Calendly signatures with the sealed signing key', async () => {
      await calendar(ctx(), { provider: 'calendly', config: configs.calendly });
      expect((await calendlyWebhook(ctx(), S.calendlySigning)).status).toBe(201);
      expect((await calendlyWebhook(ctx(), 'another-signing-key')).status).toBe(401);
    });

    it('fetches a feed with the sealed API key and headers', async () => {
      const source = await blogSource(ctx(), configs.feed, 'Keyed feed (fetch)');
      const listed = (await ctx().admin('GET', '/api/admin/blog-sources')).body.find((s: { id: string }) => s.id === source.id);
      expect(listed).toMatchObject({ lastError: null });
      expect(listed.lastFetched).not.toBeNull();
    });

    it('masks every field its template does not name public (auth, x, nested unknown ones) in every GET', async () => {
      const created = [
        await calendar(ctx(), { provider: 'google', config: { ...configs.google, auth: S.auth, x: S.x, extra: { inner: S.nested } } }, { activate: false }),
        await calendar(ctx(), { provider: 'calendly', config: { ...configs.calendly, auth: S.auth } }, { activate: false }),
        await calendar(ctx(), { provider: 'custom', config: configs.custom, webhookUrl: fakes.webhookUrl('/masked'), apiKey: S.customKey }),
      ];
      const smtpSaved = await email(ctx(), 'smtp', { ...configs.smtp, auth: { ...configs.smtp.auth, token: S.nested }, x: S.x });
      const source = await blogSource(ctx(), { ...configs.feed, auth: S.auth, fields: { title: 'headline', extra: { deep: S.nested } } }, 'Masked feed');
      const gets = [
        ...created.map((c) => c.config),
        smtpSaved.config,
        source.config,
        (await ctx().admin('GET', '/api/admin/calendar-settings')).body,
        (await ctx().admin('PUT', `/api/admin/calendar-settings/${created[2]!.id}/activate`)).body,
        (await ctx().call('GET', '/api/calendar-settings/active')).body,
        (await ctx().admin('GET', '/api/admin/email-settings')).body,
        (await ctx().call('GET', '/api/email-settings/active')).body,
        (await ctx().admin('GET', '/api/admin/blog-sources')).body,
        (await ctx().admin('POST', `/api/admin/blog-sources/${source.id}/fetch`)).body,
      ];
      for (const [i, body] of gets.entries()) expectNoSecretIn(JSON.stringify(body), `answer ${i}`);

      const list = (await ctx().admin('GET', '/api/admin/calendar-settings')).body as { id: string; config: string; apiKey: string }[];
      expect(JSON.parse(list.find((r) => r.id === created[0]!.id)!.config)).toEqual({
        client_id: configs.google.client_id,
        client_secret: '••••cccc',
        redirect_uri: configs.google.redirect_uri,
        calendar_id: 'primary',
        refresh_token: '••••dddd',
        auth: '••••kkkk',
        x: '••••llll',
        extra: { inner: '••••mmmm' },
      });
      expect(JSON.parse(list.find((r) => r.id === created[1]!.id)!.config)).toEqual({
        username: 'firm-calendar',
        personal_access_token: '••••aaaa',
        webhook_signing_key: '••••bbbb',
        auth: '••••kkkk',
      });
      const custom = list.find((r) => r.id === created[2]!.id)!;
      expect(JSON.parse(custom.config)).toEqual({ auth: '••••kkkk', x: '••••llll', extra: { inner: { deep: ['••••mmmm', '••••'] } } });
      expect(custom.apiKey).toBe('••••ffff');
      expect(JSON.parse((await ctx().admin('GET', '/api/admin/email-settings')).body.config)).toEqual({
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        auth: { user: smtp.user, pass: '••••hhhh', token: '••••mmmm' },
        from_email: 'office@firm.example',
        from_name: 'The Firm',
        x: '••••llll',
      });
      const listedSource = (await ctx().admin('GET', '/api/admin/blog-sources')).body.find((s: { id: string }) => s.id === source.id);
      expect(JSON.parse(listedSource.config)).toEqual({
        apiKey: `••••${S.feedKey.slice(-4)}`,
        headers: { Authorization: '••••jjjj' },
        itemsPath: null,
        x: '••••llll',
        auth: '••••kkkk',
        fields: { title: 'headline', extra: { deep: '••••mmmm' } },
      });
    });

    it('fails closed on a tampered SMTP password: the delivery fails saying why, and nothing is sent', async () => {
      const saved = await email(ctx(), 'smtp', configs.smtp);
      const { db, t } = ctx().database;
      const [row] = await db.select().from(t.emailSettings).where(eq(t.emailSettings.id, saved.id));
      await db
        .update(t.emailSettings)
        .set({ config: tamperAt(row!.config, ['auth', 'pass']) })
        .where(eq(t.emailSettings.id, saved.id));

      expect((await contactMessage(ctx())).status).toBe(201);
      await ctx().background.runDeliveries();
      const [entry] = await deliveryLog(ctx(), 'channel=email');
      expect(entry).toMatchObject({ status: 'failed', attempts: 1 });
      expect(entry!.lastError).toMatch(/^The smtp email configuration cannot be used: its secret "auth\.pass" cannot be opened/);
      // Not even a login was tried.
      expect(smtp.messages).toEqual([]);
      expect(smtp.refusals).toEqual([]);
      // The screens still load: the value shows as the mask alone.
      const shown = await ctx().admin('GET', '/api/admin/email-settings');
      expect(shown.status).toBe(200);
      expect(JSON.parse(shown.body.config).auth).toEqual({ user: smtp.user, pass: '••••' });
    });

    it('fails closed on an API key moved from another integration: sealed for one row, it opens in no other', async () => {
      const a = await calendar(
        ctx(),
        { provider: 'custom', config: {}, webhookUrl: fakes.webhookUrl('/a'), apiKey: 'key-of-integration-a-0001' },
        { activate: false },
      );
      const b = await calendar(ctx(), { provider: 'custom', config: {}, webhookUrl: fakes.webhookUrl('/b'), apiKey: S.customKey });
      const { db, t } = ctx().database;
      const [rowA] = await db.select().from(t.calendarSettings).where(eq(t.calendarSettings.id, a.id));
      await db.update(t.calendarSettings).set({ apiKey: rowA!.apiKey }).where(eq(t.calendarSettings.id, b.id));

      const { id: appointmentId } = await book(ctx());
      await ctx().background.runDeliveries();
      const [entry] = await deliveryLog(ctx(), `channel=calendar&appointmentId=${appointmentId}`);
      expect(entry).toMatchObject({ status: 'failed', attempts: 1 });
      expect(entry!.lastError).toMatch(/^The custom webhook integration cannot be used: its secret apiKey cannot be opened/);
      expect(fakes.webhook.at('/webhook/b')).toEqual([]);
      expect(fakes.webhook.at('/webhook/a')).toEqual([]);
    });

    it('fails closed on a tampered Calendly signing key: no webhook is accepted, nothing is written', async () => {
      const saved = await calendar(ctx(), { provider: 'calendly', config: configs.calendly });
      const { db, t } = ctx().database;
      const [row] = await db.select().from(t.calendarSettings).where(eq(t.calendarSettings.id, saved.id));
      await db
        .update(t.calendarSettings)
        .set({ config: tamperAt(row!.config, ['webhook_signing_key']) })
        .where(eq(t.calendarSettings.id, saved.id));
      const before = await countRows(ctx(), 'appointments');
      const res = await calendlyWebhook(ctx(), S.calendlySigning);
      expect(res.status).toBe(503);
      expect(res.body.error).toMatch(/signing key cannot be read/);
      expect(await countRows(ctx(), 'appointments')).toBe(before);
    });

    it('fails closed on a tampered feed key: the source records why, and the feed is not asked', async () => {
      const source = await blogSource(ctx(), configs.feed, 'Tampered feed');
      const { db, t } = ctx().database;
      const [row] = await db.select().from(t.blogSources).where(eq(t.blogSources.id, source.id));
      await db
        .update(t.blogSources)
        .set({ config: tamperAt(row!.config!, ['apiKey']) })
        .where(eq(t.blogSources.id, source.id));
      const hits = feeds.hits(feedPaths.jsonProtected);
      const res = await ctx().admin('POST', `/api/admin/blog-sources/${source.id}/fetch`);
      expect(res.status).toBe(200);
      expect(res.body.lastError).toMatch(/^The source config cannot be used: its secret "apiKey" cannot be opened/);
      expect(feeds.hits(feedPaths.jsonProtected)).toBe(hits);
    });

    it('refuses a masked value sent back as a secret (or a sealed one), and writes nothing', async () => {
      const before = await rawRows(ctx());
      for (const [path, body, field] of [
        ['/api/admin/calendar-settings', { provider: 'custom', config: '{}', webhookUrl: fakes.webhookUrl('/x'), apiKey: '••••ffff' }, 'apiKey'],
        ['/api/admin/calendar-settings', { provider: 'google', config: json({ ...configs.google, client_secret: '••••cccc' }) }, 'config'],
        ['/api/admin/calendar-settings', { provider: 'custom', config: '••••', webhookUrl: fakes.webhookUrl('/x'), apiKey: S.customKey }, 'config'],
        [
          '/api/admin/calendar-settings',
          { provider: 'custom', config: '{}', webhookUrl: `${fakes.webhookUrl('/x')}?token=••••abcd`, apiKey: S.customKey },
          'webhookUrl',
        ],
        ['/api/admin/email-settings', { provider: 'smtp', config: json({ ...configs.smtp, auth: { user: smtp.user, pass: '••••hhhh' } }) }, 'config'],
        ['/api/admin/email-settings', { provider: 'sendgrid', config: json({ ...configs.sendgrid, api_key: 'sealed:v1.0a1b2c3d.aXY.Ym9keQ' }) }, 'config'],
        ['/api/admin/blog-sources', { name: 'Masked', url: feeds.url(feedPaths.jsonProtected), type: 'api', config: json({ apiKey: '••••2d3c' }) }, 'config'],
      ] as const) {
        const res = await ctx().admin('POST', path, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(Object.keys(res.body.fields), JSON.stringify(body)).toEqual([field]);
        expect(res.body.fields[field]).toMatch(/paste the secret itself/);
      }
      expect(await rawRows(ctx())).toEqual(before);
    });
  },
  { integrations },
);

/**
 * `npm run secrets:rotate` against each dialect, with keys this test holds: plain rows from before
 * sealing keep working and get sealed; values sealed with the old key open through
 * SECRETS_KEY_PREVIOUS and come out sealed with the new one, which alone then runs the site.
 */
forEachDialect('secrets rotation', (ctx) => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  /** The API and its background work over the context's database, with the secrets key given. */
  function site(box: SecretBox) {
    const deps = testDeps(ctx().database, { clock: ctx().clock, integrations: ctx().deps.integrations, secrets: box });
    const app = createApp(deps);
    const background = startBackgroundWork(deps, { schedule: false });
    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await app.request(path, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    };
    const call = (path: string, body: unknown) =>
      app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { deps, admin, call, background };
  }

  async function rotate(env: Record<string, string>) {
    const out: string[] = [];
    const err: string[] = [];
    const where = ctx().dialect === 'postgres' ? { DATABASE_URL: ctx().database.location } : { SQLITE_PATH: ctx().database.location };
    const code = await runRotate([], { ...where, ...env }, { out: (text) => out.push(text), err: (text) => err.push(text) });
    return { code, out: out.join(''), err: err.join('') };
  }

  it('seals plain rows from before sealing, re-seals old-key values with the new key, and the site runs on the new key alone', async () => {
    ctx().clock.set(NOW);
    smtp.reset();
    fakes.webhook.resetRequests();
    const { db, t } = ctx().database;
    // As rows were written before sealing: every secret in clear text.
    await db.insert(t.emailSettings).values({ provider: 'smtp', isActive: true, config: json(configs.smtp) });
    await db
      .insert(t.blogSources)
      .values({ name: 'Plain feed', url: feeds.url(feedPaths.jsonProtected), type: 'api', config: json(configs.feed), lastFetched: new Date(NOW) });
    const old = site(createSecretBox(oldKey));
    try {
      // A plain secret is used as it is.
      expect(
        (await old.call('/api/contact', { firstName: 'Ana', lastName: 'Ruiz', email: 'ana@example.com', practiceArea: 'estate-planning', message: 'Hello' }))
          .status,
      ).toBe(201);
      expect(await old.background.runDeliveries()).toBe(1);
      expect(smtp.messages).toHaveLength(1);
      // New integrations are sealed with the old key.
      const custom = await old.admin('POST', '/api/admin/calendar-settings', {
        provider: 'custom',
        config: json(configs.custom),
        webhookUrl: fakes.webhookUrl('/rotated'),
        apiKey: S.customKey,
      });
      expect(custom.status).toBe(201);
      expect((await old.admin('PUT', `/api/admin/calendar-settings/${custom.body.id}/activate`)).status).toBe(200);
      expect((await old.admin('POST', '/api/admin/calendar-settings', { provider: 'google', config: json(configs.google) })).status).toBe(201);
    } finally {
      await old.background.stop();
    }
    expect(JSON.stringify((await rawRows(ctx())).email)).toContain(S.smtpPass);

    const rotated = await rotate({ SECRETS_KEY: newKey.toString('base64'), SECRETS_KEY_PREVIOUS: oldKey.toString('hex') });
    expect(rotated.err).toBe('');
    expect(rotated.code).toBe(0);
    expect(rotated.out).toContain('calendar_settings: 2 re-sealed\nemail_settings: 1 re-sealed\nblog_sources: 1 re-sealed\n');

    // Nothing in clear text, everything sealed with the new key, and the old key alone opens nothing.
    const rows = await rawRows(ctx());
    expectNoSecretIn(JSON.stringify(rows), 'the rows after rotation');
    const current = createSecretBox(newKey);
    for (const row of rows.calendar) {
      expect(configIsCurrent(current, row.config, configKind('calendar', row.provider)), row.provider).toBe(true);
      expect(fieldIsCurrent(current, row.apiKey)).toBe(true);
    }
    expect(configIsCurrent(current, rows.email[0]!.config, 'email:smtp')).toBe(true);
    expect(configIsCurrent(current, rows.blog[0]!.config, 'blog-source')).toBe(true);
    expect(() => openConfig(createSecretBox(oldKey), rows.email[0]!.config, { table: 'email-settings', id: rows.email[0]!.id })).toThrow(/cannot be opened/);

    // The site on the new key alone: mail logs in, the webhook verifies, the feed answers.
    const next = site(current);
    try {
      smtp.reset();
      expect((await next.call('/api/appointments', { ...visitorBooking, scheduledDate: freeSlot() })).status).toBe(201);
      await next.background.runDeliveries();
      expect(smtp.messages.length).toBeGreaterThan(0);
      expect(smtp.refusals).toEqual([]);
      const [post] = fakes.webhook.at('/webhook/rotated');
      expect(verifyTimestampedSignature(post!.headers['x-firm-signature'], post!.body, S.customKey)).toBe(true);
      const fetched = await next.admin('POST', `/api/admin/blog-sources/${rows.blog[0]!.id}/fetch`);
      expect(fetched.body).toMatchObject({ lastError: null });
    } finally {
      await next.background.stop();
    }

    // Run again: nothing left to do.
    const again = await rotate({ SECRETS_KEY: newKey.toString('base64') });
    expect(again.code).toBe(0);
    expect(again.out).toContain('Done: 0 rows re-sealed');
  });

  it('stops, naming the row, when a value was sealed with a key it is not given', async () => {
    const res = await rotate({ SECRETS_KEY: randomBytes(32).toString('base64') });
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/^secrets:rotate: calendar-settings [0-9a-f-]{36}: its secret .* cannot be opened \(sealed with an unknown key/);
  });
});
