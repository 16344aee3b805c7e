import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { createDeliveryRunner } from '../../api/deliveries/deliveries.ts';
import { emailHandler } from '../../api/mail/mail.ts';
import { expect, it } from 'vitest';
import { contactPracticeAreas } from '../../src/shared/constants.ts';
import { countRows, forEachDialect, NON_ADMIN_TOKEN, type TestContext } from '../support/test-app.ts';

let seq = 0;
function submission(overrides: Record<string, unknown> = {}) {
  seq += 1;
  return {
    firstName: 'Maria',
    lastName: `Lopez ${seq}`,
    email: `maria.lopez${seq}@example.com`,
    phone: '(619) 555-0199',
    practiceArea: 'estate-planning',
    message: 'I would like to set up a living trust for my family.',
    ...overrides,
  };
}

async function stored(ctx: TestContext, id: string) {
  const { db, t } = ctx.database;
  const [row] = await db.select().from(t.contactSubmissions).where(eq(t.contactSubmissions.id, id));
  return row;
}

async function submit(ctx: TestContext, body: Record<string, unknown>) {
  const res = await ctx.call('POST', '/api/contact', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; createdAt: string };
}

forEachDialect('contact submissions', (ctx) => {
  it('stores exactly what was sent, trimmed, unread and unresolved', async () => {
    const body = submission();
    // Free text is trimmed; the practice area is a value from a list and must be sent exactly.
    const padded = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, k === 'practiceArea' ? v : `  ${v}\n`]));
    ctx().clock.set('2025-08-01T16:30:00.000Z');
    const res = await ctx().call('POST', '/api/contact', { body: padded });
    expect(res.status).toBe(201);
    expect(res.body.id).toBeTypeOf('string');
    const row = await stored(ctx(), res.body.id);
    expect(row).toEqual({
      id: res.body.id,
      firstName: body.firstName,
      lastName: body.lastName,
      email: body.email,
      phone: body.phone,
      practiceArea: body.practiceArea,
      message: body.message,
      isRead: false,
      isResolved: false,
      createdAt: new Date('2025-08-01T16:30:00.000Z'),
    });
    expect(res.body.createdAt).toBe('2025-08-01T16:30:00.000Z');
  });

  it('keeps a multi-line message as written and accepts every contact practice area', async () => {
    const message = 'Line one.\n\nLine two with <b>markup</b> & "quotes".';
    for (const practiceArea of contactPracticeAreas) {
      const created = await submit(ctx(), submission({ practiceArea, message }));
      expect(await stored(ctx(), created.id)).toMatchObject({ practiceArea, message });
    }
    const longest = await submit(ctx(), submission({ message: 'x'.repeat(5000) }));
    expect((await stored(ctx(), longest.id))!.message).toHaveLength(5000);
  });

  it('treats the phone as optional: missing, null or blank is stored as null', async () => {
    const { phone: _phone, ...noPhone } = submission();
    for (const body of [noPhone, submission({ phone: null }), submission({ phone: '' }), submission({ phone: '   ' })]) {
      const created = await submit(ctx(), body);
      const row = await stored(ctx(), created.id);
      expect(row!.phone, JSON.stringify(body)).toBeNull();
      expect(row!.email).toBe(body.email);
    }
  });

  it('ignores flags and ids a visitor tries to set', async () => {
    const created = await submit(ctx(), submission({ isRead: true, isResolved: true, id: 'chosen-id', createdAt: '2000-01-01T00:00:00.000Z' }));
    expect(created.id).not.toBe('chosen-id');
    const row = await stored(ctx(), created.id);
    expect(row).toMatchObject({ isRead: false, isResolved: false });
    expect(row!.createdAt.getUTCFullYear()).not.toBe(2000);
  });

  it('rejects a missing or invalid field with a message per field and writes nothing', async () => {
    const before = await countRows(ctx(), 'contactSubmissions');
    const required = ['firstName', 'lastName', 'email', 'practiceArea', 'message'] as const;
    for (const field of required) {
      for (const value of [undefined, '', '   ', null]) {
        const res = await ctx().call('POST', '/api/contact', { body: submission({ [field]: value }) });
        expect(res.status, `${field}=${JSON.stringify(value)}`).toBe(400);
        expect(Object.keys(res.body.fields), `${field}=${JSON.stringify(value)}`).toEqual([field]);
        expect(res.body.fields[field]).toBeTypeOf('string');
      }
    }
    const cases: [Record<string, unknown>, string, string][] = [
      [submission({ email: 'not-an-email' }), 'email', 'Please enter a valid email address'],
      [submission({ email: 'maria@' }), 'email', 'Please enter a valid email address'],
      [submission({ email: 'a b@example.com' }), 'email', 'Please enter a valid email address'],
      [submission({ practiceArea: 'divorce' }), 'practiceArea', 'Please choose a practice area'],
      [submission({ practiceArea: 'custody' }), 'practiceArea', 'Please choose a practice area'],
      [submission({ practiceArea: 'Family-Law' }), 'practiceArea', 'Please choose a practice area'],
      [submission({ message: 'x'.repeat(5001) }), 'message', 'Message must be at most 5000 characters'],
      [submission({ firstName: 'x'.repeat(101) }), 'firstName', 'First name must be at most 100 characters'],
      [submission({ phone: 'call me maybe' }), 'phone', 'Please enter a valid phone number'],
      [submission({ phone: 6195550199 }), 'phone', 'Phone must be text'],
      [submission({ message: 42 }), 'message', 'Message is required'],
    ];
    for (const [body, field, message] of cases) {
      const res = await ctx().call('POST', '/api/contact', { body });
      expect(res.status, `${field}: ${JSON.stringify(body[field]).slice(0, 40)}`).toBe(400);
      expect(res.body.fields[field]).toBe(message);
    }
    const requiredMessages = await ctx().call('POST', '/api/contact', { body: {} });
    expect(requiredMessages.status).toBe(400);
    expect(requiredMessages.body.fields).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Email is required',
      practiceArea: 'Please choose a practice area',
      message: 'Message is required',
    });
    expect((await ctx().call('POST', '/api/contact', { rawBody: 'firstName=Maria' })).status).toBe(400);
    expect((await ctx().call('POST', '/api/contact', { body: [submission()] })).status).toBe(400);
    expect(await countRows(ctx(), 'contactSubmissions')).toBe(before);
  });

  it('lists every submission for the admin, newest first', async () => {
    ctx().clock.set('2025-09-01T10:00:00.000Z');
    const first = await submit(ctx(), submission());
    ctx().clock.set('2025-09-03T10:00:00.000Z');
    const third = await submit(ctx(), submission());
    ctx().clock.set('2025-09-02T10:00:00.000Z');
    const second = await submit(ctx(), submission());
    ctx().clock.set('2030-01-01T00:00:00.000Z');
    const latest = await submit(ctx(), submission({ phone: undefined }));

    const res = await ctx().admin('GET', '/api/admin/contact-submissions');
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(await countRows(ctx(), 'contactSubmissions'));
    const ids = res.body.map((r: { id: string }) => r.id);
    expect(ids.filter((id: string) => [first.id, second.id, third.id].includes(id))).toEqual([third.id, second.id, first.id]);
    expect(ids[0]).toBe(latest.id);
    const dates = res.body.map((r: { createdAt: string }) => Date.parse(r.createdAt));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    const row = await stored(ctx(), latest.id);
    expect(res.body[0]).toEqual({ ...row, createdAt: '2030-01-01T00:00:00.000Z', phone: null });
  });

  it('marks a submission read, then resolved, each idempotently and independently', async () => {
    const created = await submit(ctx(), submission());
    const other = await submit(ctx(), submission());

    const read = await ctx().admin('PUT', `/api/admin/contact-submissions/${created.id}/read`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: created.id, isRead: true, isResolved: false });
    expect(await stored(ctx(), created.id)).toMatchObject({ isRead: true, isResolved: false });

    const again = await ctx().admin('PUT', `/api/admin/contact-submissions/${created.id}/read`);
    expect(again.status).toBe(200);
    expect(await stored(ctx(), created.id)).toMatchObject({ isRead: true, isResolved: false });

    const resolved = await ctx().admin('PUT', `/api/admin/contact-submissions/${created.id}/resolved`);
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ id: created.id, isRead: true, isResolved: true });
    expect((await ctx().admin('PUT', `/api/admin/contact-submissions/${created.id}/resolved`)).status).toBe(200);
    expect(await stored(ctx(), created.id)).toMatchObject({ isRead: true, isResolved: true });

    // Resolving does not mark read on its own; the other submission is untouched throughout.
    expect(await stored(ctx(), other.id)).toMatchObject({ isRead: false, isResolved: false });
    await ctx().admin('PUT', `/api/admin/contact-submissions/${other.id}/resolved`);
    expect(await stored(ctx(), other.id)).toMatchObject({ isRead: false, isResolved: true });

    // The rest of the record is unchanged.
    const row = await stored(ctx(), created.id);
    expect(row).toMatchObject({ firstName: 'Maria', message: 'I would like to set up a living trust for my family.' });
  });

  it('cannot reverse the flags: there is no endpoint for it', async () => {
    const created = await submit(ctx(), submission());
    await ctx().admin('PUT', `/api/admin/contact-submissions/${created.id}/read`);
    await ctx().admin('PUT', `/api/admin/contact-submissions/${created.id}/resolved`);
    for (const [method, path, body] of [
      ['PUT', `/api/admin/contact-submissions/${created.id}/unread`, undefined],
      ['PUT', `/api/admin/contact-submissions/${created.id}/unresolved`, undefined],
      ['DELETE', `/api/admin/contact-submissions/${created.id}/read`, undefined],
      ['DELETE', `/api/admin/contact-submissions/${created.id}/resolved`, undefined],
      ['PUT', `/api/admin/contact-submissions/${created.id}`, { isRead: false, isResolved: false }],
      ['PATCH', `/api/admin/contact-submissions/${created.id}`, { isRead: false, isResolved: false }],
    ] as const) {
      const res = await ctx().admin(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(await stored(ctx(), created.id)).toMatchObject({ isRead: true, isResolved: true });
  });

  it('answers 404 for an unknown submission and changes nothing', async () => {
    const created = await submit(ctx(), submission());
    for (const flag of ['read', 'resolved']) {
      const res = await ctx().admin('PUT', `/api/admin/contact-submissions/no-such-id/${flag}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Contact submission not found');
      expect((await ctx().admin('PUT', `/api/admin/contact-submissions/${'x'.repeat(65)}/${flag}`)).status).toBe(404);
    }
    expect(await stored(ctx(), created.id)).toMatchObject({ isRead: false, isResolved: false });
  });

  it('a deletion request: the message goes with its notification delivery and its held copy in the outbox; the others stay', async () => {
    const { db, t } = ctx().database;
    const doomed = await submit(ctx(), submission({ firstName: 'Erin', message: 'Please delete me after you call.' }));
    const kept = await submit(ctx(), submission());
    // No email setting: both notifications are held in the development outbox.
    await ctx().background.runDeliveries();
    const files = async () => (await ctx().deps.outbox.list()).filter((m) => m.subject.startsWith('New contact message: '));
    const doomedRow = (await stored(ctx(), doomed.id))!;
    const copiesOf = async (email: string) => (await files()).filter((m) => m.text.includes(email));
    expect(await copiesOf(doomedRow.email)).toHaveLength(1);
    // A copy held before messages named their delivery: recognised by its subject and the visitor's address.
    await ctx().deps.outbox.deliver({
      to: 'intake@firm.example',
      subject: `New contact message: Erin ${doomedRow.lastName} (Estate Planning)`,
      text: `Email: ${doomedRow.email}\nMessage: Please delete me after you call.`,
    });
    expect(await copiesOf(doomedRow.email)).toHaveLength(2);
    const deliveriesOf = async (id: string) =>
      db
        .select()
        .from(t.deliveries)
        .where(eq(t.deliveries.dedupeKey, `contact-notification:${id}`));
    expect(await deliveriesOf(doomed.id)).toHaveLength(1);

    const res = await ctx().admin('DELETE', `/api/admin/contact-submissions/${doomed.id}`);
    expect(res.status).toBe(204);
    expect(await stored(ctx(), doomed.id)).toBeUndefined();
    expect(await deliveriesOf(doomed.id)).toEqual([]);
    expect(await copiesOf(doomedRow.email)).toEqual([]);
    expect(JSON.stringify((await ctx().admin('GET', '/api/admin/contact-submissions')).body)).not.toContain(doomedRow.email);
    expect(JSON.stringify((await ctx().admin('GET', '/api/admin/deliveries?channel=email')).body)).not.toContain(doomed.id);

    // The other message, its delivery and its copy are untouched.
    const keptRow = (await stored(ctx(), kept.id))!;
    expect(keptRow).toBeDefined();
    expect(await deliveriesOf(kept.id)).toHaveLength(1);
    expect(await copiesOf(keptRow.email)).toHaveLength(1);

    // Gone is gone: a second delete, or an unknown id, is 404; only an admin may delete.
    expect(await ctx().admin('DELETE', `/api/admin/contact-submissions/${doomed.id}`)).toMatchObject({
      status: 404,
      body: { error: 'Contact submission not found' },
    });
    expect((await ctx().admin('DELETE', `/api/admin/contact-submissions/${'x'.repeat(65)}`)).status).toBe(404);
    expect((await ctx().call('DELETE', `/api/admin/contact-submissions/${kept.id}`)).status).toBe(401);
    expect((await ctx().call('DELETE', `/api/admin/contact-submissions/${kept.id}`, { token: NON_ADMIN_TOKEN })).status).toBe(403);
    expect(await stored(ctx(), kept.id)).toBeDefined();
  });

  it('a deletion that lands while another container holds the notification leaves no copy; a half-written outbox file from before, an old long-named copy and the stored retry answer go too', async () => {
    const { db, t } = ctx().database;
    const files = async (email: string) => (await ctx().deps.outbox.list()).filter((m) => JSON.stringify(m).includes(email));

    // The delete arrives while the runner holds the claimed delivery (no email setting: it would be held).
    const racing = await submit(ctx(), submission());
    const racingEmail = (await stored(ctx(), racing.id))!.email;
    const real = emailHandler(ctx().deps);
    const runner = createDeliveryRunner({
      database: ctx().database,
      clock: ctx().clock,
      log: ctx().deps.log,
      handlers: {
        email: async (delivery, payload) => {
          expect((await ctx().admin('DELETE', `/api/admin/contact-submissions/${racing.id}`)).status).toBe(204);
          return real(delivery, payload);
        },
        calendar: async () => ({ status: 'sent' }),
      },
    });
    await runner.runDue();
    expect(await files(racingEmail)).toEqual([]);

    // A long name (the subject is cut at 200 characters), an old copy without its delivery's name, a
    // half-written file, and a retry's stored answer.
    const long = submission({ firstName: 'A'.repeat(100), lastName: 'B'.repeat(100) });
    const idempotencyKey = `erase-${seq}-${ctx().dialect}`;
    const created = await ctx().call('POST', '/api/contact', { body: long, headers: { 'Idempotency-Key': idempotencyKey } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await ctx().deps.outbox.deliver({
      to: 'intake@firm.example',
      subject: `New contact message: ${'A'.repeat(100)} ${'B'.repeat(78)}…`,
      text: `Email: ${long.email}\nMessage: ${long.message}`,
    });
    // A file an older version left half-written in its outbox folder: imported whole (decision 042).
    const before = mkdtempSync(join(tmpdir(), 'firm-outbox-'));
    writeFileSync(
      join(before, '0000-half.json'),
      `{"to":"intake@firm.example","subject":"New contact message: AAAA","text":"Email: ${long.email}\nMessage: ${long.message}`,
    );
    expect(await ctx().deps.outbox.importFiles(before)).toEqual({ imported: 1, deleted: 1 });
    await ctx().background.runDeliveries();
    expect((await files(long.email)).length).toBe(3);
    expect((await ctx().admin('DELETE', `/api/admin/contact-submissions/${id}`)).status).toBe(204);
    expect(await files(long.email)).toEqual([]);
    expect(JSON.stringify(await db.select().from(t.idempotencyKeys))).not.toContain(id);
    // A retry of the same send is a new message now, not "already stored".
    const retried = await ctx().call('POST', '/api/contact', { body: long, headers: { 'Idempotency-Key': idempotencyKey } });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await stored(ctx(), retried.body.id)).toBeDefined();

    // An id that is not a message's (wildcards included) deletes nothing anywhere.
    const answers = (await db.select().from(t.idempotencyKeys)).length;
    for (const odd of ['%', '_', 'not-a-uuid'])
      expect((await ctx().admin('DELETE', `/api/admin/contact-submissions/${encodeURIComponent(odd)}`)).status).toBe(404);
    expect((await db.select().from(t.idempotencyKeys)).length).toBe(answers);
  });

  it('refuses the admin calls without an admin token', async () => {
    const created = await submit(ctx(), submission());
    expect((await ctx().call('GET', '/api/admin/contact-submissions')).status).toBe(401);
    expect((await ctx().call('GET', '/api/admin/contact-submissions', { token: NON_ADMIN_TOKEN })).status).toBe(403);
    expect((await ctx().call('PUT', `/api/admin/contact-submissions/${created.id}/read`)).status).toBe(401);
    expect((await ctx().call('PUT', `/api/admin/contact-submissions/${created.id}/resolved`, { token: NON_ADMIN_TOKEN })).status).toBe(403);
    expect(await stored(ctx(), created.id)).toMatchObject({ isRead: false, isResolved: false });
  });
});
