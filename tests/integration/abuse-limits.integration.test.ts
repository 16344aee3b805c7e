/**
 * Abuse limits (docs/decisions/013-abuse-limits.md) on the public calls, on SQLite and
 * PostgreSQL: per-client rate limits answered 429 with Retry-After (the clock moved, never waited
 * for), the honeypot that drops a bot's request behind a success, the body-size limit and every public
 * field's bound. The app is called as @hono/node-server calls it: the client is the socket's address
 * (`c.env.incoming.socket.remoteAddress`), no test-only header or setting.
 */
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../api/app.ts';
import { createMemoryRateLimitStore, defaultRateRules, noRateLimits, rateLimit, TOO_MANY_REQUESTS, type RateLimitSettings } from '../../api/http/rate-limit.ts';
import { estimateProbate } from '../../src/shared/probate.ts';
import { freeSlots, NOW } from '../support/appointment-requests.ts';
import { countRows, forEachDialect, type TestContext } from '../support/test-app.ts';

/** NOW (Monday 1 April 2030, 9:00 AM at the firm) in milliseconds; the booking window runs a year from here. */
const start = Date.parse(NOW);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** The API with the production limits (or `rules`), and its own store, so each test starts afresh. */
function limitedApp(ctx: TestContext, settings: Partial<RateLimitSettings> = {}): App {
  return createApp({ ...ctx.deps, rateLimits: { rules: defaultRateRules, trustedProxies: [], store: createMemoryRateLimitStore(), ...settings } });
}

/** A request from `from` (the socket's address), as the Node server hands it to the app. */
async function send(
  app: App,
  method: string,
  path: string,
  from: string,
  init: { body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  const headers = { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers };
  const res = await app.request(path, { method, headers, body }, { incoming: { socket: { remoteAddress: from } } });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

let seq = 0;
const contact = (overrides: Record<string, unknown> = {}) => {
  seq += 1;
  return {
    firstName: 'Maria',
    lastName: `Lopez ${seq}`,
    email: `abuse.contact.${seq}.${Date.now()}@example.com`,
    phone: '(619) 555-0199',
    practiceArea: 'estate-planning',
    message: 'I would like to set up a living trust for my family.',
    ...overrides,
  };
};

/** A fresh free slot per booking, from Monday 6 May 2030 on, so no booking of one test takes another's time. */
const freeSlot = freeSlots('2030-05-06');
const booking = (overrides: Record<string, unknown> = {}) => {
  seq += 1;
  return {
    firstName: 'Ana',
    lastName: `Reyes ${seq}`,
    email: `abuse.booking.${seq}.${Date.now()}@example.com`,
    phone: '(619) 555-0142',
    consultationType: 'initial',
    practiceArea: 'estate-planning',
    notes: 'About my mother’s estate.',
    scheduledDate: freeSlot(),
    ...overrides,
  };
};

/** What the calculator island sends for an estate (every figure the schedule's). */
const calculation = (overrides: Record<string, unknown> = {}) => {
  seq += 1;
  const e = estimateProbate(500_000 + seq * 1000, 0);
  return {
    estateValue: String(e.estateValue),
    realEstateValue: '0',
    attorneyFees: String(e.attorneyFees),
    executorFees: String(e.executorFees),
    courtCosts: String(e.courtCosts),
    totalProbate: String(e.totalProbate),
    trustCost: String(e.trustCost),
    savings: String(e.savings),
    userEmail: `abuse.calc.${seq}.${Date.now()}@example.com`,
    ...overrides,
  };
};

async function contactsFrom(ctx: TestContext, email: string) {
  const { db, t } = ctx.database;
  return db.select().from(t.contactSubmissions).where(eq(t.contactSubmissions.email, email));
}

async function calculationsFor(ctx: TestContext, userEmail: string) {
  const { db, t } = ctx.database;
  return db.select().from(t.probateCalculations).where(eq(t.probateCalculations.userEmail, userEmail));
}

/** The 429 of SPEC/STYLE §5: Retry-After in whole seconds and the usual error body with the request id. */
function expectTooMany(res: Answer, retryAfterSeconds: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(429);
  expect(res.headers.get('retry-after')).toBe(String(retryAfterSeconds));
  expect(res.body).toEqual({ error: TOO_MANY_REQUESTS, requestId: expect.any(String) });
  expect(res.body.requestId).toBe(res.headers.get('x-request-id'));
}

forEachDialect('abuse limits', (ctx) => {
  let now = start;
  const at = (ms: number) => {
    now = ms;
    ctx().clock.set(new Date(ms));
  };
  beforeEach(() => at(start));

  it('contact: the 6th message within a minute gets 429 and is not kept; another client is unaffected; a minute later it goes through', async () => {
    const app = limitedApp(ctx());
    const deliveriesBefore = await countRows(ctx(), 'deliveries');
    for (let i = 0; i < 5; i++) expect((await send(app, 'POST', '/api/contact', '203.0.113.10', { body: contact() })).status).toBe(201);
    // Each message queued the firm's notification (the control for "nothing sent" below).
    const deliveries = await countRows(ctx(), 'deliveries');
    expect(deliveries).toBeGreaterThanOrEqual(deliveriesBefore + 5);

    const sixth = contact();
    // 5 a minute: one comes back every 12 seconds.
    expectTooMany(await send(app, 'POST', '/api/contact', '203.0.113.10', { body: sixth }), 12);
    expect(await contactsFrom(ctx(), sixth.email)).toEqual([]);
    expect(await countRows(ctx(), 'deliveries')).toBe(deliveries);

    expect((await send(app, 'POST', '/api/contact', '198.51.100.20', { body: contact() })).status).toBe(201);

    at(start + MINUTE);
    const later = await send(app, 'POST', '/api/contact', '203.0.113.10', { body: sixth });
    expect(later.status).toBe(201);
    expect(await contactsFrom(ctx(), sixth.email)).toHaveLength(1);
  });

  it('contact: the daily cap of 30 holds however slowly they come, and lifts the next day', async () => {
    const app = limitedApp(ctx());
    for (let i = 0; i < 30; i++) {
      // Under the minute's limit: 4 a minute.
      at(start + Math.floor(i / 4) * MINUTE);
      expect((await send(app, 'POST', '/api/contact', '203.0.113.11', { body: contact() })).status).toBe(201);
    }
    at(start + 10 * MINUTE);
    const refused = await send(app, 'POST', '/api/contact', '203.0.113.11', { body: contact() });
    expect(refused.status).toBe(429);
    // 30 a day come back one every 48 minutes; a 31st needs more than the minute's wait.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(30 * 60);
    expect((await send(app, 'POST', '/api/contact', '203.0.113.12', { body: contact() })).status).toBe(201);
    at(start + 24 * HOUR);
    expect((await send(app, 'POST', '/api/contact', '203.0.113.11', { body: contact() })).status).toBe(201);
  });

  it('booking: the 6th within a minute gets 429 and takes no slot; another client is unaffected; a minute later it goes through', async () => {
    const app = limitedApp(ctx());
    for (let i = 0; i < 5; i++) {
      const res = await send(app, 'POST', '/api/appointments', '203.0.113.30', { body: booking() });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const appointments = await countRows(ctx(), 'appointments');
    const claims = await countRows(ctx(), 'appointmentSlotClaims');
    const sixth = booking();
    expectTooMany(await send(app, 'POST', '/api/appointments', '203.0.113.30', { body: sixth }), 12);
    expect(await countRows(ctx(), 'appointments')).toBe(appointments);
    expect(await countRows(ctx(), 'appointmentSlotClaims')).toBe(claims);

    expect((await send(app, 'POST', '/api/appointments', '198.51.100.30', { body: booking() })).status).toBe(201);
    at(start + MINUTE);
    const later = await send(app, 'POST', '/api/appointments', '203.0.113.30', { body: sixth });
    expect(later.status, JSON.stringify(later.body)).toBe(201);
  });

  it('booking: one client takes at most 20 slots a day, so a few clients cannot fill the year (~3,400 slots)', async () => {
    const app = limitedApp(ctx());
    const outcomes: number[] = [];
    for (let i = 0; i < 25; i++) {
      at(start + Math.floor(i / 4) * MINUTE);
      outcomes.push((await send(app, 'POST', '/api/appointments', '203.0.113.31', { body: booking() })).status);
    }
    expect(outcomes).toEqual([...Array<number>(20).fill(201), ...Array<number>(5).fill(429)]);
    expect((await send(app, 'POST', '/api/appointments', '203.0.113.32', { body: booking() })).status).toBe(201);
    at(start + 24 * HOUR);
    expect((await send(app, 'POST', '/api/appointments', '203.0.113.31', { body: booking() })).status).toBe(201);
  });

  it('booking: the slot list allows 120 looks a minute per client', async () => {
    const app = limitedApp(ctx());
    const path = '/api/appointments/availability?date=2030-05-06&consultationType=initial';
    for (let i = 0; i < 120; i++) expect((await send(app, 'GET', path, '203.0.113.33')).status).toBe(200);
    expectTooMany(await send(app, 'GET', path, '203.0.113.33'), 1);
    expect((await send(app, 'GET', path, '198.51.100.33')).status).toBe(200);
  });

  it('calculator: the 21st save within a minute gets 429 and is not kept; another client is unaffected; a minute later it goes through', async () => {
    const app = limitedApp(ctx());
    for (let i = 0; i < 20; i++) expect((await send(app, 'POST', '/api/probate-calculator', '203.0.113.40', { body: calculation() })).status).toBe(201);
    const saves = await countRows(ctx(), 'probateCalculations');
    const refused = calculation();
    // 20 a minute: one comes back every 3 seconds.
    expectTooMany(await send(app, 'POST', '/api/probate-calculator', '203.0.113.40', { body: refused }), 3);
    expect(await countRows(ctx(), 'probateCalculations')).toBe(saves);
    expect((await send(app, 'POST', '/api/probate-calculator', '198.51.100.40', { body: calculation() })).status).toBe(201);
    at(start + MINUTE);
    expect((await send(app, 'POST', '/api/probate-calculator', '203.0.113.40', { body: refused })).status).toBe(201);
    expect(await calculationsFor(ctx(), refused.userEmail)).toHaveLength(1);
  });

  it('a refused request is refused before its body is read, valid or not', async () => {
    const app = limitedApp(ctx(), { rules: { ...defaultRateRules, contact: [{ max: 1, windowMs: MINUTE }] } });
    expect((await send(app, 'POST', '/api/contact', '203.0.113.50', { raw: '{not json' })).status).toBe(400);
    expect((await send(app, 'POST', '/api/contact', '203.0.113.50', { raw: '{not json' })).status).toBe(429);
  });

  it('behind a trusted proxy each visitor counts on their own; X-Forwarded-For from anyone else changes nothing', async () => {
    const app = limitedApp(ctx(), { rules: { ...defaultRateRules, contact: [{ max: 1, windowMs: MINUTE }] }, trustedProxies: ['10.0.0.0/8'] });
    const viaProxy = (visitor: string, claimed?: string) =>
      send(app, 'POST', '/api/contact', '10.0.0.2', { body: contact(), headers: { 'x-forwarded-for': claimed ? `${claimed}, ${visitor}` : visitor } });
    expect((await viaProxy('198.51.100.60')).status).toBe(201);
    expect((await viaProxy('198.51.100.61')).status).toBe(201);
    // The same visitor, claiming to be someone else in the part of the header it writes itself.
    expect((await viaProxy('198.51.100.60', '192.0.2.99')).status).toBe(429);
    // A client talking to the server directly cannot name itself anew.
    const direct = (claimed: string) => send(app, 'POST', '/api/contact', '203.0.113.61', { body: contact(), headers: { 'x-forwarded-for': claimed } });
    expect((await direct('192.0.2.1')).status).toBe(201);
    expect((await direct('192.0.2.2')).status).toBe(429);
  });

  it('honeypot: a contact message with it filled gets the success status and shape, and nothing is kept or sent', async () => {
    const app = limitedApp(ctx());
    const real = await send(app, 'POST', '/api/contact', '203.0.113.70', { body: contact({ website: '' }) });
    expect(real.status).toBe(201);
    const deliveries = await countRows(ctx(), 'deliveries');
    const rows = await countRows(ctx(), 'contactSubmissions');
    for (const [i, website] of ['https://cheap-pills.example', 42, { a: 1 }, 'x'.repeat(10_000)].entries()) {
      const bot = contact({ website });
      const res = await send(app, 'POST', '/api/contact', `203.0.113.${71 + i}`, { body: bot });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(Object.keys(real.body).sort());
      expect(res.body).toEqual({ id: expect.any(String), createdAt: new Date(now).toISOString() });
      expect(await contactsFrom(ctx(), bot.email)).toEqual([]);
    }
    expect(await countRows(ctx(), 'contactSubmissions')).toBe(rows);
    expect(await countRows(ctx(), 'deliveries')).toBe(deliveries);
  });

  it('honeypot: a booking with it filled gets the success status and shape, takes no slot and sends nothing', async () => {
    const app = limitedApp(ctx());
    const real = await send(app, 'POST', '/api/appointments', '203.0.113.80', { body: booking() });
    expect(real.status).toBe(201);
    const deliveries = await countRows(ctx(), 'deliveries');
    const appointments = await countRows(ctx(), 'appointments');
    const bot = booking({ website: 'http://spam.example', consultationType: 'divorce' });
    const res = await send(app, 'POST', '/api/appointments', '203.0.113.81', { body: bot });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(real.body).sort());
    expect(res.body).toEqual({
      id: expect.any(String),
      consultationType: 'divorce',
      scheduledDate: new Date(bot.scheduledDate).toISOString(),
      duration: 60,
      status: 'scheduled',
      // A token of the real one's shape (its id and a signature's length) that opens nothing.
      manageToken: expect.stringMatching(new RegExp(`^${res.body.id}\\.[A-Za-z0-9_-]{43}$`)),
    });
    expect((await send(app, 'GET', '/api/appointments/manage', '203.0.113.81', { headers: { 'X-Booking-Token': res.body.manageToken } })).status).toBe(404);
    expect(await countRows(ctx(), 'appointments')).toBe(appointments);
    expect(await countRows(ctx(), 'deliveries')).toBe(deliveries);
    // The slot stays free: a person books it.
    const person = await send(app, 'POST', '/api/appointments', '203.0.113.82', { body: { ...booking(), scheduledDate: bot.scheduledDate } });
    expect(person.status, JSON.stringify(person.body)).toBe(201);
  });

  it('honeypot: a calculation with it filled gets the success status and shape, and is not kept', async () => {
    const app = limitedApp(ctx());
    const real = await send(app, 'POST', '/api/probate-calculator', '203.0.113.90', { body: calculation({ website: '   ' }) });
    expect(real.status).toBe(201);
    const rows = await countRows(ctx(), 'probateCalculations');
    const bot = calculation({ website: 'seo-agency' });
    const res = await send(app, 'POST', '/api/probate-calculator', '203.0.113.91', { body: bot });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(real.body).sort());
    expect(await calculationsFor(ctx(), bot.userEmail)).toEqual([]);
    expect(await countRows(ctx(), 'probateCalculations')).toBe(rows);
  });

  it('a 10 MB message is refused (413) with nothing written; a 5,000-character one is always accepted', async () => {
    const app = limitedApp(ctx());
    const rows = await countRows(ctx(), 'contactSubmissions');
    const huge = JSON.stringify(contact({ message: 'A'.repeat(10 * 1024 * 1024) }));
    // As a client sends it (with its length), and streamed without one.
    const declared = await send(app, 'POST', '/api/contact', '203.0.113.100', { raw: huge, headers: { 'content-length': String(Buffer.byteLength(huge)) } });
    expect(declared.status).toBe(413);
    expect(declared.body).toEqual({ error: 'Request body is too large (64 KB at most).', requestId: expect.any(String) });
    expect((await send(app, 'POST', '/api/contact', '203.0.113.101', { raw: huge })).status).toBe(413);
    expect(await countRows(ctx(), 'contactSubmissions')).toBe(rows);

    // The longest message a person may write, in letters that take 3 bytes each in UTF-8 as well.
    for (const letter of ['a', '中']) {
      const body = contact({ message: letter.repeat(5000) });
      const res = await send(app, 'POST', '/api/contact', '203.0.113.102', { body });
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
      const [row] = await contactsFrom(ctx(), body.email);
      expect(row?.message).toBe(body.message);
    }
    const tooLong = await send(app, 'POST', '/api/contact', '203.0.113.103', { body: contact({ message: 'a'.repeat(5001) }) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.fields).toEqual({ message: 'Message must be at most 5000 characters' });
  });

  it('every public text field has a bound: one character over it is refused, naming the field, with nothing written', async () => {
    const app = limitedApp(ctx(), { rules: noRateLimits });
    const over = (n: number) => 'a'.repeat(n + 1);
    const cases: [string, (overrides: Record<string, unknown>) => Record<string, unknown>, string, unknown][] = [
      ['/api/contact', contact, 'firstName', over(100)],
      ['/api/contact', contact, 'lastName', over(100)],
      ['/api/contact', contact, 'email', `${over(254)}@example.com`],
      ['/api/contact', contact, 'phone', '1'.repeat(41)],
      ['/api/contact', contact, 'practiceArea', over(60_000)],
      ['/api/contact', contact, 'message', over(5000)],
      ['/api/appointments', booking, 'firstName', over(100)],
      ['/api/appointments', booking, 'lastName', over(100)],
      ['/api/appointments', booking, 'email', `${over(254)}@example.com`],
      ['/api/appointments', booking, 'phone', '1'.repeat(41)],
      ['/api/appointments', booking, 'notes', over(2000)],
      ['/api/appointments', booking, 'consultationType', over(60_000)],
      ['/api/appointments', booking, 'practiceArea', over(60_000)],
      ['/api/appointments', booking, 'scheduledDate', `2030-05-06T10:00:00-07:00${'0'.repeat(60_000)}`],
      ['/api/probate-calculator', calculation, 'estateValue', '1'.repeat(60_000)],
      ['/api/probate-calculator', calculation, 'savings', '1'.repeat(60_000)],
      ['/api/probate-calculator', calculation, 'userEmail', `${over(254)}@example.com`],
    ];
    const tables = ['contactSubmissions', 'appointments', 'probateCalculations'] as const;
    const before = await Promise.all(tables.map((table) => countRows(ctx(), table)));
    for (const [path, make, field, value] of cases) {
      const res = await send(app, 'POST', path, '203.0.113.110', { body: make({ [field]: value }) });
      expect(res.status, `${path} ${field}`).toBe(400);
      expect(Object.keys(res.body.fields ?? {}), `${path} ${field}`).toContain(field);
    }
    expect(await Promise.all(tables.map((table) => countRows(ctx(), table)))).toEqual(before);
  });
});

// The limiter alone (its middleware, as the routes mount it), without the database: 100,000 requests
// through the whole API would take a minute on the CI machine and show nothing more.
describe('abuse limits: memory', () => {
  it('the limiter’s memory stays bounded with 100,000 distinct clients', async () => {
    const store = createMemoryRateLimitStore({ maxKeys: 5_000 });
    const deps = { clock: { now: () => new Date(start) }, rateLimits: { rules: defaultRateRules, trustedProxies: [], store } };
    const app = new Hono().post('/api/contact', rateLimit(deps, 'contact'), (c) => c.body(null, 204));
    const from = (i: number) => ({ incoming: { socket: { remoteAddress: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` } } });
    for (let i = 0; i < 100_000; i++) {
      const res = await app.request('/api/contact', { method: 'POST' }, from(i));
      if (res.status !== 204) expect(res.status).toBe(204);
      if (store.size > 5_000) expect(store.size).toBeLessThanOrEqual(5_000);
    }
    expect(store.size).toBe(5_000);
    // Still limiting: the latest clients are remembered (the 100,000th had one request, 4 more are allowed).
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await app.request('/api/contact', { method: 'POST' }, from(99_999))).status);
    expect(statuses).toEqual([204, 204, 204, 204, 429]);
  });
});
