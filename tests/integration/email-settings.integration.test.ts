import { expect, it } from 'vitest';
import { openConfig } from '../../api/crypto/sealed-config.ts';
import { forEachDialect, NON_ADMIN_TOKEN, type TestContext } from '../support/test-app.ts';

/** SPEC §3 config templates, as the admin dialog sends them (JSON text). */
const sendgridKey = 'SG.sendgrid-api-key-0123456789abcdef';
const smtpPass = 'smtp-password-value-4321';
const sendgridConfig = JSON.stringify({ api_key: sendgridKey, from_email: 'office@firm.example.com', from_name: 'The Firm' });
const smtpConfig = JSON.stringify({ host: 'smtp.example.com', port: 587, secure: false, auth: { user: 'office@firm.example.com', pass: smtpPass } });

async function stored(ctx: TestContext) {
  const { db, t } = ctx.database;
  return db.select().from(t.emailSettings);
}

/** A stored config as mail uses it: its sealed secrets opened (docs/decisions/015). */
const opened = (ctx: TestContext, row: { id: string; config: string }) => openConfig(ctx.deps.secrets, row.config, { table: 'email-settings', id: row.id });

forEachDialect('email settings', (ctx) => {
  it('has no active email setting before the first save', async () => {
    const res = await ctx().call('GET', '/api/email-settings/active');
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    expect(await stored(ctx())).toEqual([]);
  });

  it('rejects a save without a JSON-object config and writes nothing', async () => {
    for (const body of [
      {},
      { config: '' },
      { config: '   ' },
      { config: 'not json' },
      { config: '[1,2]' },
      { config: '"text"' },
      { config: 'null' },
      { config: '42' },
      { config: { api_key: 'x' } },
    ]) {
      const res = await ctx().admin('POST', '/api/admin/email-settings', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body.fields)).toEqual(['config']);
    }
    expect(await stored(ctx())).toEqual([]);
    expect((await ctx().call('GET', '/api/email-settings/active')).body).toBeNull();
  });

  it('saves a SendGrid configuration active, provider sendgrid by default, and masks the API key in the response', async () => {
    const res = await ctx().admin('POST', '/api/admin/email-settings', { config: sendgridConfig });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: expect.any(String), provider: 'sendgrid', isActive: true });
    expect(JSON.stringify(res.body)).not.toContain(sendgridKey);
    expect(JSON.parse(res.body.config)).toEqual({ api_key: '••••cdef', from_email: 'office@firm.example.com', from_name: 'The Firm' });

    const rows = await stored(ctx());
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: res.body.id, provider: 'sendgrid', isActive: true });
    expect(rows[0]!.config).not.toContain(sendgridKey);
    expect(opened(ctx(), rows[0]!)).toBe(sendgridConfig);

    const active = await ctx().call('GET', '/api/email-settings/active');
    expect(active.status).toBe(200);
    expect(active.body).toEqual({ provider: 'sendgrid', isActive: true });
    expect(JSON.stringify(active.body)).not.toContain(sendgridKey);
  });

  it('replaces the existing configuration with a new save: exactly one row, the new one', async () => {
    const [previous] = await stored(ctx());
    const res = await ctx().admin('POST', '/api/admin/email-settings', { provider: 'smtp', isActive: true, config: smtpConfig });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ provider: 'smtp', isActive: true });
    expect(res.body.id).not.toBe(previous!.id);
    expect(JSON.stringify(res.body)).not.toContain(smtpPass);
    expect(JSON.parse(res.body.config)).toEqual({
      host: 'smtp.example.com',
      port: 587,
      secure: false,
      auth: { user: 'office@firm.example.com', pass: '••••4321' },
    });

    const rows = await stored(ctx());
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: res.body.id, provider: 'smtp', isActive: true });
    expect(rows[0]!.config).not.toContain(smtpPass);
    expect(opened(ctx(), rows[0]!)).toBe(smtpConfig);
    expect((await ctx().call('GET', '/api/email-settings/active')).body).toEqual({ provider: 'smtp', isActive: true });
  });

  it('leaves the saved configuration untouched when a save is rejected', async () => {
    const before = await stored(ctx());
    expect(before).toHaveLength(1);
    for (const body of [
      { provider: 'sendgrid', config: '' },
      { provider: 'sendgrid', config: '{"api_key": ' },
      { provider: 'mailgun', config: sendgridConfig },
      { provider: 'sendgrid', isActive: false, config: sendgridConfig },
      { provider: 'sendgrid', config: 'x'.repeat(20_001) },
    ]) {
      const res = await ctx().admin('POST', '/api/admin/email-settings', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error).toBeTypeOf('string');
    }
    const provider = await ctx().admin('POST', '/api/admin/email-settings', { provider: 'mailgun', config: sendgridConfig });
    expect(Object.keys(provider.body.fields)).toEqual(['provider']);
    expect(await stored(ctx())).toEqual(before);
  });

  it('keeps exactly one configuration, the newest, when saves race', async () => {
    for (let round = 0; round < 15; round++) {
      const results = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          ctx().admin('POST', '/api/admin/email-settings', { provider: i % 2 ? 'smtp' : 'sendgrid', config: JSON.stringify({ n: i }) }),
        ),
      );
      for (const res of results) expect(res.status).toBe(201);
      const rows = await stored(ctx());
      expect(rows).toHaveLength(1);
      expect(results.map((r) => r.body.id)).toContain(rows[0]!.id);
      const active = await ctx().call('GET', '/api/email-settings/active');
      expect(active.body).toEqual({ provider: rows[0]!.provider, isActive: true });
    }
  });

  it('refuses the admin call without an admin token and keeps the configuration', async () => {
    const before = await stored(ctx());
    expect((await ctx().call('POST', '/api/admin/email-settings', { body: { config: sendgridConfig } })).status).toBe(401);
    expect((await ctx().call('POST', '/api/admin/email-settings', { body: { config: sendgridConfig }, token: NON_ADMIN_TOKEN })).status).toBe(403);
    expect(await stored(ctx())).toEqual(before);
  });
});
