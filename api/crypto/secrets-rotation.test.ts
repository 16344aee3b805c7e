import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.ts';
import { resealers, rotateSecrets, runRotate } from '../../scripts/secrets-rotate.ts';
import { createSecretBox, type SecretBox } from './secret-box.ts';
import { createDevOutbox } from '../mail/dev-outbox.ts';
import { configIsCurrent, fieldIsCurrent, openConfig, openField, sealConfig, sealField } from './sealed-config.ts';
import { configKind } from './secret-masking.ts';

const smtp = JSON.stringify({ host: 'smtp.example.com', port: 587, secure: false, auth: { user: 'u@firm.example', pass: 'smtp-pass-0123456789' } });
const google = JSON.stringify({ client_id: 'cid', client_secret: 'GOCSPX-secret-0001', refresh_token: '1//refresh-0002', calendar_id: 'primary' });
const feed = JSON.stringify({ apiKey: 'feed-key-0003', itemsPath: 'data.posts' });

let database: Database;
beforeEach(async () => {
  // An in-memory SQLite database, migrated: the resealers' queries are the same in both dialects
  // (tests/integration/secrets-at-rest.integration.test.ts runs the command on each).
  database = await openDatabase({ sqlitePath: ':memory:' });
});
afterEach(() => database.close());

/** Rows as they may be found: sealed with the old key by the API, or plain from before sealing. */
async function seed(old: SecretBox) {
  const { db, t } = database;
  const ids = { sealedCal: randomUUID(), plainCal: randomUUID(), email: randomUUID(), sealedBlog: randomUUID(), plainBlog: randomUUID() };
  const cal = (id: string) => ({ table: 'calendar-settings', id }) as const;
  await db.insert(t.calendarSettings).values([
    {
      id: ids.sealedCal,
      provider: 'google',
      config: sealConfig(old, google, 'calendar:google', cal(ids.sealedCal)),
      apiKey: sealField(old, 'api-key-0004', cal(ids.sealedCal), 'apiKey'),
    },
    { id: ids.plainCal, provider: 'custom', config: 'plain free text 0005', webhookUrl: 'https://hooks.example.com/x', apiKey: 'plain-api-key-0006' },
  ]);
  await db
    .insert(t.emailSettings)
    .values({ id: ids.email, provider: 'smtp', isActive: true, config: sealConfig(old, smtp, 'email:smtp', { table: 'email-settings', id: ids.email }) });
  await db.insert(t.blogSources).values([
    {
      id: ids.sealedBlog,
      name: 'a',
      url: 'https://a.example.com/feed',
      config: sealConfig(old, feed, 'blog-source', { table: 'blog-sources', id: ids.sealedBlog }),
    },
    { id: ids.plainBlog, name: 'b', url: 'https://b.example.com/feed', config: feed },
    { id: randomUUID(), name: 'c', url: 'https://c.example.com/feed', config: null },
  ]);
  // Held mail (decision 042): one message sealed with the old key.
  await createDevOutbox({ database, secrets: old, clock: { now: () => new Date() } }).deliver({
    to: 'ana@example.com',
    subject: 'Your verification code',
    text: 'Your verification code is 482913.',
  });
  return ids;
}

describe('secrets:rotate resealers', () => {
  it('open old-key values through the previous key, seal plain ones, and leave everything current', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    await seed(createSecretBox(oldKey));
    const before = await database.db.select().from(database.t.calendarSettings);

    expect(await rotateSecrets(database, createSecretBox(newKey, [oldKey]))).toEqual({
      calendar_settings: 2,
      email_settings: 1,
      blog_sources: 2,
      identity_signing_keys: 0,
      identity_users: 0,
      outbox_messages: 1,
    });

    // The new key alone opens everything, to what was there before.
    const current = createSecretBox(newKey);
    const { db, t } = database;
    for (const row of await db.select().from(t.calendarSettings)) {
      const owner = { table: 'calendar-settings', id: row.id } as const;
      expect(configIsCurrent(current, row.config, configKind('calendar', row.provider))).toBe(true);
      expect(fieldIsCurrent(current, row.apiKey)).toBe(true);
      expect(openConfig(current, row.config, owner)).toBe(row.provider === 'google' ? google : 'plain free text 0005');
      expect(openField(current, row.apiKey, owner, 'apiKey')).toBe(row.provider === 'google' ? 'api-key-0004' : 'plain-api-key-0006');
      // Not a change an admin made: updatedAt is kept.
      expect(row.updatedAt).toEqual(before.find((b) => b.id === row.id)!.updatedAt);
    }
    const [email] = await db.select().from(t.emailSettings);
    expect(configIsCurrent(current, email!.config, 'email:smtp')).toBe(true);
    expect(openConfig(current, email!.config, { table: 'email-settings', id: email!.id })).toBe(smtp);
    for (const row of await db.select().from(t.blogSources)) {
      expect(configIsCurrent(current, row.config, 'blog-source')).toBe(true);
      if (row.config) expect(openConfig(current, row.config, { table: 'blog-sources', id: row.id })).toBe(feed);
    }
    expect(JSON.stringify(await db.select().from(t.calendarSettings))).not.toMatch(/GOCSPX|plain-api-key|plain free text/);
    const [held] = await createDevOutbox({ database, secrets: current, clock: { now: () => new Date() } }).list();
    expect(held?.text).toBe('Your verification code is 482913.');

    // Nothing left to do the second time.
    expect(await rotateSecrets(database, current)).toEqual({
      calendar_settings: 0,
      email_settings: 0,
      blog_sources: 0,
      identity_signing_keys: 0,
      identity_users: 0,
      outbox_messages: 0,
    });
  });

  it('stop at a value sealed with a key they are not given, naming the row, and change nothing of it', async () => {
    const ids = await seed(createSecretBox(randomBytes(32)));
    const [row] = await database.db.select().from(database.t.calendarSettings);
    await expect(rotateSecrets(database, createSecretBox(randomBytes(32)), { calendar_settings: resealers.calendar_settings! })).rejects.toThrow(
      new RegExp(`calendar-settings ${ids.sealedCal}: its secret .* cannot be opened \\(sealed with an unknown key`),
    );
    const [after] = await database.db.select().from(database.t.calendarSettings);
    expect(after).toEqual(row);
  });

  it('are a list a table can join: each (database, box) => rows rewritten', async () => {
    const calls: string[] = [];
    const counts = await rotateSecrets(database, createSecretBox(randomBytes(32)), {
      ...resealers,
      identity_signing_keys: async (db, box) => {
        calls.push(typeof db.db.select === 'function' && typeof box.seal === 'function' ? 'called' : 'wrong arguments');
        return 3;
      },
    });
    expect(calls).toEqual(['called']);
    expect(counts).toMatchObject({ calendar_settings: 0, email_settings: 0, blog_sources: 0, identity_signing_keys: 3 });
  });
});

describe('npm run secrets:rotate', () => {
  it('refuses to run without a key rather than generate one the server does not have', async () => {
    const file = join(tmpdir(), `no-such-key-${randomUUID()}`, 'secrets.key');
    const err: string[] = [];
    const code = await runRotate([], { SQLITE_PATH: ':memory:', SECRETS_KEY_FILE: file }, { out: () => {}, err: (text) => err.push(text) });
    expect(code).toBe(2);
    expect(err.join('')).toMatch(/no secrets key/);
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a key that is not 32 bytes', async () => {
    const err: string[] = [];
    const code = await runRotate([], { SQLITE_PATH: ':memory:', SECRETS_KEY: 'too-short' }, { out: () => {}, err: (text) => err.push(text) });
    expect(code).toBe(1);
    expect(err.join('')).toMatch(/SECRETS_KEY must be 32 bytes/);
  });
});
