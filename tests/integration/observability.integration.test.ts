/**
 * On SQLite and PostgreSQL: every request gets one structured log line
 * (request id, method, path without its query string, status, time) and an X-Request-Id header; every
 * error body carries the same request id; and no line holds personal data or a secret, including the
 * line of a 500 (forced here by a closed database, whose driver error quotes the statement's values)
 * and the lines of the mail the requests queue. The logger is the real one, writing into the test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../api/app.ts';
import { startBackgroundWork, type BackgroundWork } from '../../api/composition.ts';
import { createLogger } from '../../api/logger.ts';
import { openDatabase } from '../../db/client.ts';
import { NOW } from '../support/appointment-requests.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { ADMIN_TOKEN, testDeps } from '../support/test-deps.ts';
import { logLines, serverDatabase, startServerProcess, type ServerDatabase } from '../support/server-process.ts';

/** Personal data and secrets the requests carry: none of it may reach a log line. */
const person = {
  firstName: 'Zebulon',
  lastName: 'Quartermaine',
  email: 'zebulon.quartermaine@example.org',
  phone: '(619) 555-0187',
};
const MESSAGE = 'Confidential: my late aunt left a trust and my cousin contests it.';
const NOTES = 'Private note about the custody hearing in May.';
const BAD_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzb21lb25lIn0.c2lnbmF0dXJlLXNlY3JldA';
const secrets = [...Object.values(person), MESSAGE, NOTES, ADMIN_TOKEN, BAD_TOKEN, 'Zebulon', 'Quartermaine', '555-0187'];

const contactBody = { ...person, practiceArea: 'estate-planning', message: MESSAGE };
const bookingBody = { ...person, consultationType: 'initial', practiceArea: 'custody', notes: NOTES, scheduledDate: '2030-05-06T10:30:00-07:00' };

interface Answer {
  status: number;
  requestId: string | null;
  body: Record<string, unknown> | null;
}

async function call(
  app: App,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; token?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await app.request(path, { method, headers, body });
  const text = await res.text();
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, requestId: res.headers.get('x-request-id'), body: parsed };
}

/** The one request line of this request id: exactly the agreed fields, the path without its query. */
function expectRequestLine(lines: Record<string, unknown>[], answer: Answer, method: string, path: string) {
  expect(answer.requestId).toMatch(/^[\w=-]{1,255}$/);
  const found = lines.filter((l) => l.msg === 'request' && l.requestId === answer.requestId);
  expect(found).toHaveLength(1);
  expect(found[0]).toEqual({
    time: expect.any(String),
    level: 'info',
    msg: 'request',
    requestId: answer.requestId,
    method,
    path,
    status: answer.status,
    ms: expect.any(Number),
  });
  expect(String(found[0]!.path)).not.toContain('?');
}

/** An error answer: its body names the request id of its header (and of its log line). */
function expectErrorBody(answer: Answer, status: number) {
  expect(answer.status).toBe(status);
  expect(answer.body).toMatchObject({ error: expect.any(String), requestId: answer.requestId });
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe(`request logs and request ids [${dialect}]`, () => {
    let database: TestDatabase;
    let app: App;
    let background: BackgroundWork;
    const written: string[] = [];
    const log = createLogger({ write: (line) => written.push(line) });
    const lines = () => written.map((line) => JSON.parse(line) as Record<string, unknown>);
    const clock = { now: () => new Date(NOW) };

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      const deps = testDeps(database, { log, clock });
      app = createApp(deps);
      // The mail that bookings and messages queue is logged too when it is delivered.
      background = startBackgroundWork(deps, { schedule: false });
    });
    afterAll(async () => {
      await background?.stop();
      await database?.drop();
      // Whatever each test did, no line ever held personal data or a secret.
      const all = written.join('\n');
      for (const secret of secrets) expect(all, secret).not.toContain(secret);
    });

    it('a message: one request line, and the mail it queues is logged without the sender', async () => {
      const answer = await call(app, 'POST', '/api/contact', { body: contactBody });
      expect(answer.status).toBe(201);
      expectRequestLine(lines(), answer, 'POST', '/api/contact');
      expect(await background.runDeliveries()).toBeGreaterThan(0);
      expect(lines().filter((l) => l.msg !== 'request').length).toBeGreaterThan(0);
      for (const secret of secrets) expect(written.join('\n')).not.toContain(secret);
    });

    it('a booking: one request line, the mail it queues logged without the visitor', async () => {
      const answer = await call(app, 'POST', '/api/appointments', { body: bookingBody });
      expect(answer.status).toBe(201);
      expectRequestLine(lines(), answer, 'POST', '/api/appointments');
      expect(await background.runDeliveries()).toBeGreaterThan(0);
      for (const secret of secrets) expect(written.join('\n')).not.toContain(secret);
    });

    it('a failed validation: 400 with the request id, logged without what was sent', async () => {
      const answer = await call(app, 'POST', '/api/contact', { body: { ...contactBody, email: `${person.firstName} at nowhere` } });
      expectErrorBody(answer, 400);
      expectRequestLine(lines(), answer, 'POST', '/api/contact');
      const malformed = await call(app, 'POST', '/api/appointments', { rawBody: `{"firstName": "${person.firstName}",` });
      expectErrorBody(malformed, 400);
      expectRequestLine(lines(), malformed, 'POST', '/api/appointments');
    });

    it('the query string stays out of the log (it may carry personal data)', async () => {
      const answer = await call(app, 'GET', `/api/appointments/availability?date=2030-05-06&email=${encodeURIComponent(person.email)}&name=${person.lastName}`);
      expect(answer.status).toBe(200);
      expectRequestLine(lines(), answer, 'GET', '/api/appointments/availability');
    });

    it('admin calls: the bearer token is never logged, refused ones answer with the request id', async () => {
      const listed = await call(app, 'GET', '/api/admin/contact-submissions', { token: ADMIN_TOKEN });
      expect(listed.status).toBe(200);
      expectRequestLine(lines(), listed, 'GET', '/api/admin/contact-submissions');
      const refused = await call(app, 'GET', '/api/admin/contact-submissions', { token: BAD_TOKEN });
      expectErrorBody(refused, 401);
      expectRequestLine(lines(), refused, 'GET', '/api/admin/contact-submissions');
      const anonymous = await call(app, 'PUT', `/api/admin/appointments/${crypto.randomUUID()}`, { body: { status: 'cancelled' } });
      expectErrorBody(anonymous, 401);
    });

    it('unknown paths: 404 with the request id', async () => {
      const answer = await call(app, 'GET', '/api/no-such-thing');
      expectErrorBody(answer, 404);
      expectRequestLine(lines(), answer, 'GET', '/api/no-such-thing');
    });

    it("a caller's own X-Request-Id is kept end to end; one that does not look like an id is replaced", async () => {
      const traced = await call(app, 'GET', '/api/no-such-thing', { headers: { 'x-request-id': 'lb-trace-0042' } });
      expect(traced.requestId).toBe('lb-trace-0042');
      expectErrorBody(traced, 404);
      expectRequestLine(lines(), traced, 'GET', '/api/no-such-thing');
      const forged = await call(app, 'GET', '/api/no-such-thing', { headers: { 'x-request-id': `${person.email} "level":"error"` } });
      expect(forged.requestId).not.toContain(person.email);
      expectRequestLine(lines(), forged, 'GET', '/api/no-such-thing');
    });

    it('a 500 (the database is gone): the body and the error line carry the request id, and not what was sent', async () => {
      // A second connection to the same database, closed: every query through it fails in the driver.
      const closed = await openDatabase(
        dialect === 'sqlite' ? { sqlitePath: database.location, migrate: false } : { databaseUrl: database.location, migrate: false },
      );
      await closed.close();
      const broken = createApp(testDeps(closed, { log, clock }));
      for (const [path, body] of [
        ['/api/contact', contactBody],
        ['/api/appointments', bookingBody],
      ] as const) {
        const answer = await call(broken, 'POST', path, { body });
        expectErrorBody(answer, 500);
        expect(answer.body!.error).toBe('Something went wrong on our side. Please try again, or call the office.');
        expectRequestLine(lines(), answer, 'POST', path);
        const errorLine = lines().find((l) => l.msg === 'unhandled error' && l.requestId === answer.requestId);
        expect(errorLine).toMatchObject({ level: 'error', method: 'POST', path, err: expect.any(String) });
        for (const secret of secrets) expect(JSON.stringify(errorLine), secret).not.toContain(secret);
      }
    });
  });
}

describe('the server outside the API [sqlite]', () => {
  let database: ServerDatabase;
  beforeAll(async () => {
    database = await serverDatabase('sqlite');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('logs every request with its id, path without the query, and answers a 404 with the request id', { timeout: 60_000 }, async () => {
    const server = await startServerProcess({ ...database.env, LOG_QUIET: 'false' });
    try {
      const res = await fetch(`${server.url}/no-such-page?email=${encodeURIComponent(person.email)}`);
      const requestId = res.headers.get('x-request-id');
      expect(requestId).toMatch(/^[\w-]+$/);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'Not found', requestId });
      const api = await fetch(`${server.url}/api/health`, { headers: { 'x-request-id': 'edge-77' } });
      expect(api.headers.get('x-request-id')).toBe('edge-77');
      await api.arrayBuffer();
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    const requests = logLines(server.stdout).filter((l) => l.msg === 'request');
    expect(requests).toContainEqual({
      time: expect.any(String),
      level: 'info',
      msg: 'request',
      requestId: expect.any(String),
      method: 'GET',
      path: '/no-such-page',
      status: 404,
      ms: expect.any(Number),
    });
    expect(requests).toContainEqual(expect.objectContaining({ requestId: 'edge-77', method: 'GET', path: '/api/health', status: 200 }));
    expect([...server.stdout, ...server.stderr].join('\n')).not.toContain(person.email);
  });
});
