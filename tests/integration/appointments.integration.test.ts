import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { countRows, forEachDialect, type TestContext } from '../support/test-app.ts';

/** SPEC §9 Consultation types: value -> minutes, written out here so the test does not trust the code's copy. */
const minutesByType: Record<string, number> = { initial: 30, 'follow-up': 30, 'estate-planning': 60, 'family-law': 45, divorce: 60 };

/** The booking modal's payload (SPEC §7), with every field it sends. */
const valid = {
  firstName: 'Maria',
  lastName: 'Lopez',
  email: 'maria.lopez@example.com',
  phone: '(619) 555-0142',
  consultationType: 'estate-planning',
  practiceArea: 'trust-administration',
  notes: 'Questions about my late father’s trust.',
  scheduledDate: '2030-05-06T10:30:00-07:00',
  duration: 30,
  status: 'scheduled',
  reminderSent: false,
};

async function storedAppointment(ctx: TestContext, id: string) {
  const { db, t } = ctx.database;
  const [row] = await db.select().from(t.appointments).where(eq(t.appointments.id, id));
  return row;
}

async function book(ctx: TestContext, patch: Record<string, unknown> = {}) {
  const res = await ctx.call('POST', '/api/appointments', { body: { ...valid, ...patch } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

forEachDialect('appointments', (ctx) => {
  it('books an appointment and stores exactly what was sent, the instant in UTC', async () => {
    const res = await ctx().call('POST', '/api/appointments', { body: valid });
    expect(res.status).toBe(201);
    const stored = await storedAppointment(ctx(), res.body.id);
    expect(stored).toMatchObject({
      firstName: 'Maria',
      lastName: 'Lopez',
      email: 'maria.lopez@example.com',
      phone: '(619) 555-0142',
      consultationType: 'estate-planning',
      practiceArea: 'trust-administration',
      notes: 'Questions about my late father’s trust.',
      duration: 60,
      status: 'scheduled',
      reminderSent: false,
      externalEventId: null,
    });
    // 10:30 at UTC-7 is 17:30 UTC: the same instant, whatever the server's time zone.
    expect(stored!.scheduledDate).toBeInstanceOf(Date);
    expect(stored!.scheduledDate.toISOString()).toBe('2030-05-06T17:30:00.000Z');
    expect(stored!.createdAt).toBeInstanceOf(Date);
  });

  it('answers with what identifies the booking, never the personal details', async () => {
    const res = await ctx().call('POST', '/api/appointments', { body: { ...valid, scheduledDate: '2030-05-07T16:00:00.000Z' } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['consultationType', 'duration', 'id', 'scheduledDate', 'status']);
    expect(res.body).toEqual({ id: res.body.id, consultationType: 'estate-planning', scheduledDate: '2030-05-07T16:00:00.000Z', duration: 60, status: 'scheduled' });
    const text = JSON.stringify(res.body);
    for (const secret of [valid.firstName, valid.lastName, valid.email, valid.phone, valid.notes]) expect(text).not.toContain(secret);
    expect(await storedAppointment(ctx(), res.body.id)).toBeDefined();
  });

  it('takes the duration from the consultation type, whatever duration was sent', async () => {
    for (const [type, minutes] of Object.entries(minutesByType)) {
      for (const duration of [5, 999, -1, '90', undefined]) {
        const res = await ctx().call('POST', '/api/appointments', { body: { ...valid, consultationType: type, duration } });
        expect(res.status, `${type} ${duration}`).toBe(201);
        expect(res.body.duration, `${type} ${duration}`).toBe(minutes);
        expect((await storedAppointment(ctx(), res.body.id))!.duration, `${type} ${duration}`).toBe(minutes);
      }
    }
  });

  it('applies the SPEC defaults: phone and notes optional (null), scheduled, no reminder sent', async () => {
    const { phone: _phone, notes: _notes, status: _status, reminderSent: _reminder, duration: _duration, ...required } = valid;
    const res = await ctx().call('POST', '/api/appointments', { body: required });
    expect(res.status).toBe(201);
    expect(await storedAppointment(ctx(), res.body.id)).toMatchObject({ phone: null, notes: null, status: 'scheduled', reminderSent: false, duration: 60 });
    const blank = await ctx().call('POST', '/api/appointments', { body: { ...valid, phone: '  ', notes: '' } });
    expect(blank.status).toBe(201);
    expect(await storedAppointment(ctx(), blank.body.id)).toMatchObject({ phone: null, notes: null });
  });

  it('trims the text it stores', async () => {
    const id = await book(ctx(), { firstName: '  Ana ', lastName: ' Ruiz  ', email: ' ana@example.com ' });
    expect(await storedAppointment(ctx(), id)).toMatchObject({ firstName: 'Ana', lastName: 'Ruiz', email: 'ana@example.com' });
  });

  it('rejects an invalid booking with a message on the field and writes nothing', async () => {
    const before = await countRows(ctx(), 'appointments');
    const cases: [string, Record<string, unknown>, string][] = [
      ...(['firstName', 'lastName', 'email', 'consultationType', 'practiceArea', 'scheduledDate'] as const).map(
        (field): [string, Record<string, unknown>, string] => [`missing ${field}`, { ...valid, [field]: undefined }, field],
      ),
      ['blank firstName', { ...valid, firstName: '   ' }, 'firstName'],
      ['blank lastName', { ...valid, lastName: '' }, 'lastName'],
      ['unknown consultationType', { ...valid, consultationType: 'tax-advice' }, 'consultationType'],
      ['consultation label instead of value', { ...valid, consultationType: 'Initial Consultation' }, 'consultationType'],
      ['practice area outside the booking list (probate)', { ...valid, practiceArea: 'probate' }, 'practiceArea'],
      ['unknown practiceArea', { ...valid, practiceArea: 'criminal-defense' }, 'practiceArea'],
      ['bad email', { ...valid, email: 'maria.example.com' }, 'email'],
      ['email with a space', { ...valid, email: 'maria lopez@example.com' }, 'email'],
      ['unparseable date', { ...valid, scheduledDate: 'next tuesday at ten' }, 'scheduledDate'],
      ['blank date', { ...valid, scheduledDate: '' }, 'scheduledDate'],
      ['impossible date (February 30)', { ...valid, scheduledDate: '2030-02-30T10:00:00Z' }, 'scheduledDate'],
      ['bare number as date', { ...valid, scheduledDate: '5' }, 'scheduledDate'],
      ['date and time without an offset', { ...valid, scheduledDate: '2030-05-06T10:30:00' }, 'scheduledDate'],
      ['epoch number as date', { ...valid, scheduledDate: 1_900_000_000_000 }, 'scheduledDate'],
      ['status confirmed', { ...valid, status: 'confirmed' }, 'status'],
      ['status completed', { ...valid, status: 'completed' }, 'status'],
      ['status unknown', { ...valid, status: 'pending' }, 'status'],
      ['reminderSent true', { ...valid, reminderSent: true }, 'reminderSent'],
      ['bad phone', { ...valid, phone: 'call me <b>maybe</b>' }, 'phone'],
      ['notes too long', { ...valid, notes: 'x'.repeat(2001) }, 'notes'],
    ];
    for (const [label, body, field] of cases) {
      const res = await ctx().call('POST', '/api/appointments', { body });
      expect(res.status, label).toBe(400);
      expect(res.body.fields?.[field], label).toBeTypeOf('string');
    }
    const empty = await ctx().call('POST', '/api/appointments', { body: {} });
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.fields).sort()).toEqual(['consultationType', 'email', 'firstName', 'lastName', 'practiceArea', 'scheduledDate']);
    expect(await countRows(ctx(), 'appointments')).toBe(before);
  });

  it('lists appointments with their details for the admin', async () => {
    const id = await book(ctx(), { firstName: 'Listed', email: 'listed@example.com', scheduledDate: '2030-06-03T09:00:00-07:00' });
    const res = await ctx().admin('GET', '/api/admin/appointments');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(await countRows(ctx(), 'appointments'));
    expect(res.body.find((r: { id: string }) => r.id === id)).toMatchObject({
      firstName: 'Listed',
      email: 'listed@example.com',
      phone: valid.phone,
      scheduledDate: '2030-06-03T16:00:00.000Z',
      status: 'scheduled',
      duration: 60,
    });
    expect((await ctx().call('GET', '/api/admin/appointments')).status).toBe(401);
  });

  it('moves scheduled -> confirmed -> completed, each stored', async () => {
    const id = await book(ctx());
    const confirmed = await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: 'confirmed' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ id, status: 'confirmed' });
    expect((await storedAppointment(ctx(), id))!.status).toBe('confirmed');
    const completed = await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: 'completed' });
    expect(completed.status).toBe(200);
    expect((await storedAppointment(ctx(), id))!.status).toBe('completed');
  });

  for (const terminal of ['completed', 'cancelled'] as const) {
    it(`treats ${terminal} as terminal: 409 on any change, the same status again a 200 no-op`, async () => {
      const id = await book(ctx());
      expect((await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: terminal })).status).toBe(200);
      const settled = await storedAppointment(ctx(), id);
      expect(settled!.status).toBe(terminal);
      for (const status of ['scheduled', 'confirmed', 'cancelled', 'completed'].filter((s) => s !== terminal)) {
        const res = await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status });
        expect(res.status, status).toBe(409);
        expect(res.body.error).toBeTypeOf('string');
        expect((await storedAppointment(ctx(), id))!.status, status).toBe(terminal);
      }
      const again = await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: terminal });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ id, status: terminal });
      // A no-op writes nothing.
      expect((await storedAppointment(ctx(), id))!.updatedAt.getTime()).toBe(settled!.updatedAt.getTime());
    });
  }

  it('never leaves a terminal status when a cancel and a confirm race', async () => {
    for (let i = 0; i < 5; i++) {
      const id = await book(ctx());
      const [cancel, confirm] = await Promise.all([
        ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: 'cancelled' }),
        ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: 'confirmed' }),
      ]);
      expect(cancel.status).toBe(200);
      expect([200, 409]).toContain(confirm.status);
      // Whichever came first, the cancellation stands.
      expect((await storedAppointment(ctx(), id))!.status).toBe('cancelled');
    }
  });

  it('rejects an unknown status with 400 and answers 404 for an unknown appointment', async () => {
    const id = await book(ctx());
    for (const body of [{ status: 'done' }, { status: 'Confirmed' }, { status: null }, {}]) {
      const res = await ctx().admin('PUT', `/api/admin/appointments/${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields.status).toBeTypeOf('string');
    }
    expect((await storedAppointment(ctx(), id))!.status).toBe('scheduled');
    expect((await ctx().admin('PUT', '/api/admin/appointments/no-such-id', { status: 'confirmed' })).status).toBe(404);
  });

  it('deletes an appointment (204), then answers 404 for it', async () => {
    const id = await book(ctx());
    const before = await countRows(ctx(), 'appointments');
    expect((await ctx().admin('DELETE', `/api/admin/appointments/${id}`)).status).toBe(204);
    expect(await storedAppointment(ctx(), id)).toBeUndefined();
    expect(await countRows(ctx(), 'appointments')).toBe(before - 1);
    expect((await ctx().admin('DELETE', `/api/admin/appointments/${id}`)).status).toBe(404);
    expect((await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: 'confirmed' })).status).toBe(404);
    expect(await countRows(ctx(), 'appointments')).toBe(before - 1);
  });
});
