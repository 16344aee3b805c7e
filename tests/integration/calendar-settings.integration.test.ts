import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { openSecrets } from '../../api/calendar-sync/calendar-sync.repository.ts';
import { countRows, forEachDialect, NON_ADMIN_TOKEN, type TestContext } from '../support/test-app.ts';

/** SPEC §3 config templates, filled with recognisable secrets that must never come back in full. */
const secrets = {
  apiKey: 'cal-api-key-9f8e7d6c5b4a3921',
  token: 'calendly-pat-7c1e5b9a0d2f4e6a8b',
  signingKey: 'whsk-3a9b8c7d6e5f4a3b2c1d',
  googleSecret: 'GOCSPX-googleclientsecret-42',
  outlookSecret: 'outlook~client~secret~~7781',
  nestedPassword: 'nested-password-value-1234',
  listToken: 'refresh-token-in-a-list-5566',
  shortSecret: 'abc123',
  webhookToken: 'hooktokenvalue123456',
  googleRefresh: '1//google-refresh-token-8080',
};

const calendlyConfig = JSON.stringify({
  username: 'firm-calendar',
  personal_access_token: secrets.token,
  webhook_signing_key: secrets.signingKey,
});
const googleConfig = JSON.stringify({
  client_id: 'google-client-id.apps.example.com',
  client_secret: secrets.googleSecret,
  redirect_uri: 'https://firm.example.com/oauth/google',
  calendar_id: 'primary',
  refresh_token: secrets.googleRefresh,
});
const outlookConfig = JSON.stringify({
  client_id: 'outlook-client',
  client_secret: secrets.outlookSecret,
  tenant_id: 'tenant-1',
  user_email: 'calendar@firm.example.com',
});
const customConfig = JSON.stringify({
  endpoint: 'https://calendar.example.com',
  auth: { user: 'firm', password: secrets.nestedPassword },
  refresh_tokens: [secrets.listToken],
  pin: { api_key: secrets.shortSecret },
});

const valid = { provider: 'calendly', config: calendlyConfig, webhookUrl: 'https://firm.example.com/hooks/calendly', apiKey: secrets.apiKey };
/** A custom integration posts signed events, so it needs a webhook URL and an API key. */
const customRequired = { webhookUrl: 'https://hooks.example.com/calendar', apiKey: 'custom-signing-secret-0001' };

async function stored(ctx: TestContext) {
  const { db, t } = ctx.database;
  return db.select().from(t.calendarSettings);
}

async function storedById(ctx: TestContext, id: string) {
  const { db, t } = ctx.database;
  const [row] = await db.select().from(t.calendarSettings).where(eq(t.calendarSettings.id, id));
  return row;
}

/** A stored integration as calendar sync uses it: its sealed secrets opened (docs/decisions/015). */
async function openedById(ctx: TestContext, id: string) {
  return openSecrets(ctx.deps.secrets, (await storedById(ctx, id))!);
}

/** Every GET an admin or a visitor can make that touches calendar settings. */
async function everyGet(ctx: TestContext) {
  return [await ctx.admin('GET', '/api/admin/calendar-settings'), await ctx.call('GET', '/api/calendar-settings/active')];
}

forEachDialect('calendar settings', (ctx) => {
  it('starts with no integrations and no active one', async () => {
    const list = await ctx().admin('GET', '/api/admin/calendar-settings');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    const active = await ctx().call('GET', '/api/calendar-settings/active');
    expect(active.status).toBe(200);
    expect(active.body).toBeNull();
  });

  it('creates an integration inactive, storing config, webhook URL and API key, the secrets sealed', async () => {
    const res = await ctx().admin('POST', '/api/admin/calendar-settings', { ...valid, isActive: false });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ provider: 'calendly', isActive: false, webhookUrl: valid.webhookUrl });
    expect(res.body.id).toBeTypeOf('string');
    expect(JSON.stringify(res.body)).not.toContain(secrets.apiKey);
    expect(JSON.stringify(res.body)).not.toContain(secrets.token);
    const row = await storedById(ctx(), res.body.id);
    expect(row).toMatchObject({ provider: 'calendly', isActive: false, webhookUrl: valid.webhookUrl });
    expect(row!.createdAt).toBeInstanceOf(Date);
    for (const secret of [secrets.apiKey, secrets.token, secrets.signingKey]) expect(JSON.stringify(row)).not.toContain(secret);
    expect(await openedById(ctx(), res.body.id)).toMatchObject({ config: calendlyConfig, apiKey: secrets.apiKey });
  });

  it('accepts each provider of SPEC §3 and the custom provider with an empty config object', async () => {
    for (const [provider, config] of [
      ['google', googleConfig],
      ['outlook', outlookConfig],
      ['custom', '{}'],
    ] as const) {
      const res = await ctx().admin('POST', '/api/admin/calendar-settings', { provider, config, ...(provider === 'custom' ? customRequired : {}) });
      expect(res.status, provider).toBe(201);
      expect(await storedById(ctx(), res.body.id)).toMatchObject({ provider, isActive: false });
      expect(await openedById(ctx(), res.body.id)).toMatchObject({ config });
    }
  });

  it('stores a blank or missing webhook URL and API key as null', async () => {
    const blank = await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'google', config: googleConfig, webhookUrl: '   ', apiKey: '' });
    expect(blank.status).toBe(201);
    expect(await storedById(ctx(), blank.body.id)).toMatchObject({ webhookUrl: null, apiKey: null });
    expect(blank.body).toMatchObject({ webhookUrl: null, apiKey: null });
    const missing = await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'outlook', config: outlookConfig });
    expect(missing.status).toBe(201);
    expect(await storedById(ctx(), missing.body.id)).toMatchObject({ webhookUrl: null, apiKey: null });
    const explicitNull = await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'calendly', config: '{}', webhookUrl: null, apiKey: null });
    expect(explicitNull.status).toBe(201);
    expect(await storedById(ctx(), explicitNull.body.id)).toMatchObject({ webhookUrl: null, apiKey: null });
  });

  it('stores the config as given (sealed whole): SPEC §5 does not check it as JSON', async () => {
    const res = await ctx().admin('POST', '/api/admin/calendar-settings', {
      provider: 'custom',
      config: 'token=plain-text-config-secret-77',
      ...customRequired,
    });
    expect(res.status).toBe(201);
    expect((await storedById(ctx(), res.body.id))!.config).not.toContain('plain-text-config-secret-77');
    expect((await openedById(ctx(), res.body.id)).config).toBe('token=plain-text-config-secret-77');
    // Text that is not JSON cannot be masked key by key, so it is withheld from every GET.
    for (const get of await everyGet(ctx())) expect(JSON.stringify(get.body)).not.toContain('plain-text-config-secret-77');
  });

  it('rejects invalid input with a message per field and writes nothing', async () => {
    const before = await stored(ctx());
    for (const body of [
      { ...valid, isActive: true },
      { ...valid, isActive: 'false' },
      { ...valid, provider: 'icloud' },
      { ...valid, provider: 'Calendly' },
      { ...valid, provider: undefined },
      { ...valid, config: undefined },
      { ...valid, config: '   ' },
      { ...valid, config: { username: 'not text' } },
      { ...valid, webhookUrl: 'not a url' },
      { ...valid, webhookUrl: 'ftp://firm.example.com/hook' },
      { ...valid, webhookUrl: 'javascript:alert(1)' },
      { ...valid, apiKey: 42 },
      { ...valid, provider: 'custom', webhookUrl: '', apiKey: '' },
      {},
    ]) {
      const res = await ctx().admin('POST', '/api/admin/calendar-settings', body);
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(res.body.error).toBeTypeOf('string');
      expect(Object.keys(res.body.fields).length).toBeGreaterThan(0);
    }
    const active = await ctx().admin('POST', '/api/admin/calendar-settings', { ...valid, isActive: true });
    expect(Object.keys(active.body.fields)).toEqual(['isActive']);
    const provider = await ctx().admin('POST', '/api/admin/calendar-settings', { ...valid, provider: 'icloud' });
    expect(Object.keys(provider.body.fields)).toEqual(['provider']);
    const config = await ctx().admin('POST', '/api/admin/calendar-settings', { ...valid, config: '' });
    expect(config.body.fields.config).toBe('Configuration is required');
    const webhook = await ctx().admin('POST', '/api/admin/calendar-settings', { ...valid, webhookUrl: 'not a url' });
    expect(Object.keys(webhook.body.fields)).toEqual(['webhookUrl']);
    expect(await stored(ctx())).toEqual(before);
  });

  it('never returns the API key nor secret config values in full from any GET, while the database keeps them sealed', async () => {
    const created = [
      await ctx().admin('POST', '/api/admin/calendar-settings', valid),
      await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'google', config: googleConfig, apiKey: secrets.shortSecret }),
      await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'outlook', config: outlookConfig }),
      await ctx().admin('POST', '/api/admin/calendar-settings', {
        provider: 'custom',
        config: customConfig,
        webhookUrl: `https://user:${secrets.nestedPassword}@hooks.example.com/cal?token=${secrets.webhookToken}&team=family`,
        apiKey: secrets.shortSecret,
      }),
    ];
    for (const res of created) expect(res.status).toBe(201);
    // Activate one, so the public GET has something to show too.
    expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${created[0]!.body.id}/activate`)).status).toBe(200);

    const rows = await stored(ctx());
    const all = JSON.stringify(rows);
    const opened = JSON.stringify(rows.map((row) => openSecrets(ctx().deps.secrets, row)));
    for (const secret of Object.values(secrets)) {
      expect(opened, 'the database keeps it').toContain(secret);
      // ...sealed, but for the webhook URL's own token and password (a URL is public, masked when shown).
      if (secret !== secrets.webhookToken && secret !== secrets.nestedPassword) expect(all, 'sealed').not.toContain(secret);
    }

    const gets = await everyGet(ctx());
    for (const get of gets) {
      expect(get.status).toBe(200);
      const text = JSON.stringify(get.body);
      for (const [name, secret] of Object.entries(secrets)) expect(text, `${name} leaked`).not.toContain(secret);
    }

    // Masked, not dropped: non-secret values and the shape stay usable by the admin screen.
    const list = gets[0]!.body as { id: string; provider: string; config: string; apiKey: string | null; webhookUrl: string | null }[];
    const calendly = list.find((r) => r.id === created[0]!.body.id)!;
    expect(calendly.apiKey).toBe('••••3921');
    expect(JSON.parse(calendly.config)).toEqual({ username: 'firm-calendar', personal_access_token: '••••6a8b', webhook_signing_key: '••••2c1d' });
    const google = list.find((r) => r.id === created[1]!.body.id)!;
    expect(google.apiKey).toBe('••••');
    expect(JSON.parse(google.config)).toMatchObject({
      client_id: 'google-client-id.apps.example.com',
      redirect_uri: 'https://firm.example.com/oauth/google',
      calendar_id: 'primary',
    });
    const custom = list.find((r) => r.id === created[3]!.body.id)!;
    // Deny by default: the custom webhook's template names no config field public.
    expect(JSON.parse(custom.config)).toEqual({
      endpoint: '••••.com',
      auth: { user: '••••', password: '••••1234' },
      refresh_tokens: ['••••5566'],
      pin: { api_key: '••••' },
    });
    expect(custom.webhookUrl).toContain('hooks.example.com/cal');
    expect(custom.webhookUrl).toContain('team=family');
  });

  it('lists integrations newest first with id, provider, isActive and createdAt', async () => {
    const list = await ctx().admin('GET', '/api/admin/calendar-settings');
    expect(list.body.length).toBe(await countRows(ctx(), 'calendarSettings'));
    for (const row of list.body)
      expect(row).toEqual(
        expect.objectContaining({ id: expect.any(String), provider: expect.any(String), isActive: expect.any(Boolean), createdAt: expect.any(String) }),
      );
    const times = list.body.map((r: { createdAt: string }) => Date.parse(r.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('activates one integration and deactivates every other one', async () => {
    const a = await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'google', config: googleConfig });
    const b = await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'outlook', config: outlookConfig });
    const bystander = await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'custom', config: '{}', ...customRequired });
    const bystanderBefore = (await storedById(ctx(), bystander.body.id))!.updatedAt.getTime();

    const first = await ctx().admin('PUT', `/api/admin/calendar-settings/${a.body.id}/activate`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: a.body.id, provider: 'google', isActive: true });
    expect((await stored(ctx())).filter((r) => r.isActive).map((r) => r.id)).toEqual([a.body.id]);
    expect((await ctx().call('GET', '/api/calendar-settings/active')).body).toEqual({ provider: 'google', isActive: true });

    const second = await ctx().admin('PUT', `/api/admin/calendar-settings/${b.body.id}/activate`);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ id: b.body.id, isActive: true });
    expect((await storedById(ctx(), a.body.id))!.isActive).toBe(false);
    expect((await stored(ctx())).filter((r) => r.isActive).map((r) => r.id)).toEqual([b.body.id]);

    // Activating the active one again keeps exactly one active.
    expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${b.body.id}/activate`)).status).toBe(200);
    expect((await stored(ctx())).filter((r) => r.isActive).map((r) => r.id)).toEqual([b.body.id]);

    const active = await ctx().call('GET', '/api/calendar-settings/active');
    expect(active.status).toBe(200);
    expect(active.body).toEqual({ provider: 'outlook', isActive: true });
    // An integration whose flag never changed was not updated.
    expect((await storedById(ctx(), bystander.body.id))!.updatedAt.getTime()).toBe(bystanderBefore);
    expect((await storedById(ctx(), a.body.id))!.updatedAt.getTime()).toBeGreaterThanOrEqual(bystanderBefore);
    const list = await ctx().admin('GET', '/api/admin/calendar-settings');
    expect(list.body.filter((r: { isActive: boolean }) => r.isActive).map((r: { id: string }) => r.id)).toEqual([b.body.id]);
  });

  it('leaves exactly one integration active when several activations race', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++)
      ids.push((await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'custom', config: `{"n":${i}}`, ...customRequired })).body.id);
    // On PostgreSQL, full-table updates racing deadlocked (a 500 after deadlock_timeout) once the
    // rows had several versions: enough rows and rounds make that show most runs.
    for (let round = 0; round < 15; round++) {
      const results = await Promise.all(ids.slice(0, 12).map((id) => ctx().admin('PUT', `/api/admin/calendar-settings/${id}/activate`)));
      for (const res of results) expect(res.status).toBe(200);
      const active = (await stored(ctx())).filter((r) => r.isActive);
      expect(active.length).toBe(1);
      expect(ids).toContain(active[0]!.id);
    }
  });

  it('names, deactivates and deletes an integration (issue 19); two of one provider told apart; unknown ids 404', async () => {
    const first = await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'google', name: '  Partners’ calendar ', config: googleConfig });
    const second = await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'google', config: googleConfig });
    expect(first.body).toMatchObject({ provider: 'google', name: 'Partners’ calendar' });
    expect(second.body.name).toBeNull();

    const renamed = await ctx().admin('PUT', `/api/admin/calendar-settings/${second.body.id}`, { name: 'Intake calendar' });
    expect(renamed).toMatchObject({ status: 200, body: { id: second.body.id, name: 'Intake calendar' } });
    expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${second.body.id}`, { name: '' })).body.name).toBeNull();
    const tooLong = await ctx().admin('PUT', `/api/admin/calendar-settings/${second.body.id}`, { name: 'x'.repeat(81) });
    expect(tooLong).toMatchObject({ status: 400, body: { fields: { name: 'Name must be at most 80 characters' } } });
    expect((await storedById(ctx(), second.body.id))!.name).toBeNull();

    // Deactivate: nothing is active afterwards, and the public answer says so.
    await ctx().admin('PUT', `/api/admin/calendar-settings/${first.body.id}/activate`);
    const stopped = await ctx().admin('PUT', `/api/admin/calendar-settings/${first.body.id}/deactivate`);
    expect(stopped).toMatchObject({ status: 200, body: { id: first.body.id, isActive: false } });
    expect((await stored(ctx())).filter((r) => r.isActive)).toEqual([]);
    expect((await ctx().call('GET', '/api/calendar-settings/active')).body).toBeNull();

    // Delete: gone with its sealed secrets; a second delete, or an unknown id anywhere, is 404.
    const before = await countRows(ctx(), 'calendarSettings');
    expect((await ctx().admin('DELETE', `/api/admin/calendar-settings/${first.body.id}`)).status).toBe(204);
    expect(await storedById(ctx(), first.body.id)).toBeUndefined();
    expect(await countRows(ctx(), 'calendarSettings')).toBe(before - 1);
    for (const [method, path, body] of [
      ['DELETE', `/api/admin/calendar-settings/${first.body.id}`, undefined],
      ['PUT', `/api/admin/calendar-settings/${first.body.id}/deactivate`, undefined],
      ['PUT', `/api/admin/calendar-settings/${first.body.id}`, { name: 'x' }],
    ] as const) {
      expect(await ctx().admin(method, path, body)).toMatchObject({ status: 404, body: { error: 'Calendar integration not found' } });
    }
    expect((await ctx().call('DELETE', `/api/admin/calendar-settings/${second.body.id}`)).status).toBe(401);
    expect((await ctx().call('PUT', `/api/admin/calendar-settings/${second.body.id}/deactivate`, { token: NON_ADMIN_TOKEN })).status).toBe(403);
  });

  it('answers 404 when activating an unknown integration and changes nothing', async () => {
    const before = await stored(ctx());
    for (const id of ['no-such-id', 'x'.repeat(65)]) {
      const res = await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/activate`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBeTypeOf('string');
    }
    expect(await stored(ctx())).toEqual(before);
  });

  it('refuses the admin calls without an admin token', async () => {
    const before = await stored(ctx());
    const someId = before[0]!.id;
    expect((await ctx().call('GET', '/api/admin/calendar-settings')).status).toBe(401);
    expect((await ctx().call('POST', '/api/admin/calendar-settings', { body: valid })).status).toBe(401);
    expect((await ctx().call('POST', '/api/admin/calendar-settings', { body: valid, token: NON_ADMIN_TOKEN })).status).toBe(403);
    expect((await ctx().call('PUT', `/api/admin/calendar-settings/${someId}/activate`, { token: NON_ADMIN_TOKEN })).status).toBe(403);
    expect(await stored(ctx())).toEqual(before);
  });

  it('refuses to activate an integration whose configuration lacks what its provider needs, saying what to add, and changes nothing', async () => {
    const active = await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'custom', config: '{}', ...customRequired });
    expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${active.body.id}/activate`)).status).toBe(200);
    for (const [provider, config, key] of [
      // SPEC §3's templates as they come, blanks and all.
      ['google', JSON.stringify({ client_id: '', client_secret: '', redirect_uri: '', calendar_id: 'primary' }), 'client_id'],
      ['google', JSON.stringify({ client_id: 'id', client_secret: 'secret', calendar_id: 'primary' }), 'refresh_token'],
      ['outlook', JSON.stringify({ client_id: 'id', client_secret: 'secret', tenant_id: 'tenant' }), 'user_email'],
      ['calendly', JSON.stringify({ username: 'firm', personal_access_token: 'pat' }), 'webhook_signing_key'],
      ['google', 'not json at all', null],
    ] as const) {
      const created = await ctx().admin('POST', '/api/admin/calendar-settings', { provider, config });
      expect(created.status, config).toBe(201);
      const res = await ctx().admin('PUT', `/api/admin/calendar-settings/${created.body.id}/activate`);
      expect(res.status, config).toBe(409);
      expect(res.body.error).toMatch(/^This integration cannot be activated yet\. /);
      if (key) expect(res.body.error).toContain(`"${key}"`);
      else expect(res.body.error).toContain('not valid JSON');
    }
    // The one active before is still the one active.
    const { db, t } = ctx().database;
    const activeRows = await db.select().from(t.calendarSettings).where(eq(t.calendarSettings.isActive, true));
    expect(activeRows.map((r) => r.id)).toEqual([active.body.id]);
  });

  it('takes new settings: the configuration replaced whole, a blank webhook URL or API key kept, nothing masked written back, nothing unusable while active', async () => {
    const created = await ctx().admin('POST', '/api/admin/calendar-settings', {
      provider: 'google',
      config: googleConfig,
      webhookUrl: 'https://hooks.example.com/g',
      apiKey: secrets.apiKey,
    });
    const id = created.body.id as string;
    const next = JSON.stringify({ ...JSON.parse(googleConfig), calendar_id: 'intake@group.calendar.google.com' });
    const changed = await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/settings`, { config: next, webhookUrl: '', apiKey: '' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await openedById(ctx(), id)).toMatchObject({ config: next, apiKey: secrets.apiKey, webhookUrl: 'https://hooks.example.com/g' });
    // The answer is masked like every other.
    expect(JSON.stringify(changed.body)).not.toContain(secrets.googleRefresh);

    // What the list shows (masked) cannot come back as the secret.
    const listed = ((await ctx().admin('GET', '/api/admin/calendar-settings')).body as { id: string; config: string; apiKey: string }[]).find(
      (r) => r.id === id,
    )!;
    const before = await openedById(ctx(), id);
    const masked = await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/settings`, { config: listed.config, apiKey: listed.apiKey });
    expect(masked.status).toBe(400);
    expect(Object.keys(masked.body.fields).sort()).toEqual(['apiKey', 'config']);
    expect(await openedById(ctx(), id)).toEqual(before);

    // Active, it must stay usable: a configuration without its refresh token is refused, saying so.
    expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/activate`)).status).toBe(200);
    const active = await openedById(ctx(), id);
    const { refresh_token: _, ...without } = JSON.parse(next) as Record<string, string>;
    const refused = await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/settings`, { config: JSON.stringify(without) });
    expect(refused.status).toBe(400);
    expect(refused.body.fields.config).toContain('"refresh_token"');
    expect(await openedById(ctx(), id)).toEqual(active);

    expect((await ctx().admin('PUT', '/api/admin/calendar-settings/00000000-0000-4000-8000-000000000000/settings', { config: next })).status).toBe(404);
    expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/settings`, { config: '  ' })).status).toBe(400);
    expect((await ctx().call('PUT', `/api/admin/calendar-settings/${id}/settings`, { token: NON_ADMIN_TOKEN, body: { config: next } })).status).toBe(403);
  });
});
