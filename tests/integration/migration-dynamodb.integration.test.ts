/**
 * The one-way migration to DynamoDB, through the admin API, against dynalite started here
 * (tests/support/dynalite.ts), from SQLite and from PostgreSQL. Every kind arrives intact (compared
 * field by field with the rows, independently of the verifier); a second run changes nothing; a run
 * cut off by DynamoDB going away resumes from its checkpoints after the restart; UnprocessedItems are
 * retried to completion (and a run fails, resumably, when they never clear); a run whose server
 * stopped is found interrupted and resumed; a tampered item fails verification by name.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, NumberValue, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp, type App } from '../../api/app.ts';
import type { Deps, MigrationSettings } from '../../api/deps.ts';
import type { Database } from '../../db/client.ts';
import type { MigrationRun, VerificationResult } from '../../src/shared/migration.ts';
import { startDynalite, startDynamoProxy, type RunningDynalite } from '../support/dynalite.ts';
import { ADMIN_TOKEN, forEachDialect, NON_ADMIN_TOKEN, testDeps } from '../support/test-app.ts';

// ---------------------------------------------------------------------------------------------
// Peers and helpers
// ---------------------------------------------------------------------------------------------

const dynamo = await startDynalite();
afterAll(() => dynamo.stop());

/** Small pages and batches in flight, so a few hundred rows take many pages and out-of-order batches; waits in milliseconds. */
const tuning: MigrationSettings['tuning'] = {
  concurrency: 4,
  pageSize: 40,
  maxAttempts: 6,
  baseDelayMs: 1,
  maxDelayMs: 10,
  checkpointMs: 20,
  sdkMaxAttempts: 1,
  requestTimeoutMs: 10_000,
};

const settings = (endpoint: string, overrides: Partial<MigrationSettings> = {}): MigrationSettings => ({
  awsConfigured: true,
  awsRegion: 'us-west-2',
  endpoint,
  tableName: `firm-${randomUUID().slice(0, 8)}`,
  ...overrides,
  tuning: { ...tuning, ...overrides.tuning },
});

interface Api {
  app: App;
  call<T = any>(method: string, path: string, token?: string): Promise<{ status: number; body: T }>;
}

function api(database: Database, migration: MigrationSettings, overrides: Partial<Deps> = {}): Api {
  const app = createApp(testDeps(database, { migration, ...overrides }));
  return {
    app,
    async call(method, path, token = ADMIN_TOKEN) {
      const res = await app.request(path, { method, headers: { authorization: `Bearer ${token}` } });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
  };
}

/** Polls the latest run (as the wizard does) until it is no longer running. */
async function runEnds(a: Api, limitMs = 30_000): Promise<MigrationRun> {
  const started = Date.now();
  for (;;) {
    const res = await a.call<{ run: MigrationRun | null }>('GET', '/api/admin/migration/run');
    expect(res.status).toBe(200);
    if (res.body.run && res.body.run.state !== 'running') return res.body.run;
    if (Date.now() - started > limitMs) throw new Error(`the run still runs after ${limitMs} ms: ${JSON.stringify(res.body.run)}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

function documents(endpoint: string) {
  const client = new DynamoDBClient({ region: 'us-west-2', endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  return { client, doc: DynamoDBDocumentClient.from(client, { unmarshallOptions: { wrapNumbers: true } }) };
}

/** Every item of a table, by PK. */
async function allItems(endpoint: string, tableName: string): Promise<Map<string, Record<string, any>>> {
  const { doc, client } = documents(endpoint);
  const items = new Map<string, Record<string, any>>();
  let start: Record<string, any> | undefined;
  do {
    const out = await doc.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start, ConsistentRead: true }));
    for (const item of out.Items ?? []) items.set(item.PK, item);
    start = out.LastEvaluatedKey;
  } while (start);
  client.destroy();
  return items;
}

// ---------------------------------------------------------------------------------------------
// Factories: every kind, with awkward values (exact decimals, unicode, nulls, HTML, empty text)
// ---------------------------------------------------------------------------------------------

const UNICODE = 'Zoë Ångström-Núñez — 日本語 «quotes» "double" \'single\' 🎉';
const HTML = '<p>Hello <strong>world</strong> &amp; <a href="https://example.com/?a=1&b=2">a link</a></p>\n<script>alert("x")</script>';
const PASSWORD = 'correct horse battery staple 9!';
const LONG_URL = `https://news.example.com/articles/${'very-long-path-segment/'.repeat(130)}?q=${'x'.repeat(50)}`;
const at = (n: number) => new Date(Date.UTC(2025, 0, 6, 17, 0, 0, 123) + n * 3_661_007);

/** SPEC §2's kinds, with the table each comes from and the key prefix of decision 011. */
const kinds = {
  testimonials: { table: 'testimonials', entity: 'TESTIMONIAL', count: 60 },
  blog_posts: { table: 'blogPosts', entity: 'POST', count: 30 },
  contact_submissions: { table: 'contactSubmissions', entity: 'CONTACT', count: 45 },
  probate_calculations: { table: 'probateCalculations', entity: 'PROBATE', count: 30 },
  theme_settings: { table: 'themeSettings', entity: 'THEME', count: 5 },
  appointments: { table: 'appointments', entity: 'APPOINTMENT', count: 40 },
  calendar_settings: { table: 'calendarSettings', entity: 'CALENDAR', count: 4 },
  email_settings: { table: 'emailSettings', entity: 'EMAIL', count: 2 },
  blog_sources: { table: 'blogSources', entity: 'SOURCE', count: 3 },
  external_blog_articles: { table: 'externalBlogArticles', entity: 'ARTICLE', count: 30 },
  component_visibility_settings: { table: 'componentVisibilitySettings', entity: 'COMPONENT', count: 8 },
  users: { table: 'users', entity: 'USER', count: 4 },
} as const;
type KindName = keyof typeof kinds;
const MONEY = ['estateValue', 'realEstateValue', 'attorneyFees', 'executorFees', 'courtCosts', 'totalProbate', 'trustCost', 'savings'];
const totalRows = Object.values(kinds).reduce((n, k) => n + k.count, 0);

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

async function seedEveryKind({ db, t }: Database) {
  await db.insert(t.testimonials).values(
    range(kinds.testimonials.count).map((i) => ({
      clientName: i === 0 ? UNICODE : `Client ${i}`,
      rating: 1 + (i % 5),
      content: i === 0 ? HTML : `Testimonial ${i}`,
      practiceArea: 'estate-planning',
      isPublished: i % 2 === 0,
      createdAt: at(i),
      updatedAt: at(i + 1),
    })),
  );
  await db.insert(t.blogPosts).values(
    range(kinds.blog_posts.count).map((i) => ({
      title: i === 0 ? UNICODE : `Post ${i}`,
      slug: `post-${i}`,
      excerpt: i === 1 ? '' : `Excerpt ${i}`,
      content: HTML,
      category: 'probate',
      author: i === 2 ? UNICODE : 'The Firm',
      isPublished: i % 3 !== 0,
      publishedAt: i % 3 !== 0 ? at(i + 10) : null,
      createdAt: at(i),
      updatedAt: at(i),
    })),
  );
  await db.insert(t.contactSubmissions).values(
    range(kinds.contact_submissions.count).map((i) => ({
      firstName: i === 0 ? UNICODE : `First ${i}`,
      lastName: `Last ${i}`,
      email: `person${i}@example.com`,
      phone: i % 2 ? null : '(619) 555-0100',
      practiceArea: 'family-law',
      message: i === 0 ? HTML : `Message ${i}\nwith a second line`,
      isRead: i % 3 === 0,
      isResolved: i % 5 === 0,
      createdAt: at(i),
    })),
  );
  const awkwardMoney = ['1234567890.12', '0.10', '0.00', '9999999999.99', '100.01', '0.01', '2500.00', '1000000.50'];
  await db.insert(t.probateCalculations).values(
    range(kinds.probate_calculations.count).map((i) => {
      const money = (k: number) => (i === 0 ? awkwardMoney[k]! : `${i * 1000 + k}.${String((i * 7 + k) % 100).padStart(2, '0')}`);
      return {
        estateValue: money(0),
        realEstateValue: money(1),
        attorneyFees: money(2),
        executorFees: money(3),
        courtCosts: money(4),
        totalProbate: money(5),
        trustCost: money(6),
        savings: money(7),
        userEmail: i % 2 ? null : `estate${i}@example.com`,
        createdAt: at(i),
      };
    }),
  );
  await db.insert(t.themeSettings).values(
    range(kinds.theme_settings.count).map((i) => ({
      name: `theme-${i}`,
      displayName: i === 0 ? UNICODE : `Theme ${i}`,
      description: i === 1 ? '' : `Description ${i}`,
      cssVariables: JSON.stringify({ primary: `hsl(${i * 40} 50% 40%)`, label: UNICODE, radius: '0.5rem' }),
      isActive: i === 0,
      isDefault: i === 0,
      createdAt: at(i),
      updatedAt: at(i),
    })),
  );
  const statuses = ['scheduled', 'confirmed', 'cancelled', 'completed'] as const;
  await db.insert(t.appointments).values(
    range(kinds.appointments.count).map((i) => ({
      firstName: i === 0 ? UNICODE : `First ${i}`,
      lastName: `Last ${i}`,
      email: `client${i}@example.com`,
      phone: i % 2 ? null : '+1 619 555 0199',
      consultationType: 'initial',
      scheduledDate: at(i * 40),
      duration: i % 2 ? 30 : 60,
      status: statuses[i % 4]!,
      notes: i % 3 ? null : HTML,
      practiceArea: 'divorce',
      reminderSent: i % 4 === 1,
      externalEventId: i % 5 ? null : `event-${i}`,
      createdAt: at(i),
      updatedAt: at(i),
    })),
  );
  const providers = ['calendly', 'google', 'outlook', 'custom'] as const;
  await db.insert(t.calendarSettings).values(
    range(kinds.calendar_settings.count).map((i) => ({
      provider: providers[i % 4]!,
      isActive: i === 1,
      config: JSON.stringify({ client_id: `id-${i}`, note: UNICODE }),
      webhookUrl: i % 2 ? null : `https://hooks.example.com/${i}`,
      apiKey: i === 0 ? 'sk_live_not_a_real_key' : null,
      createdAt: at(i),
      updatedAt: at(i),
    })),
  );
  await db.insert(t.emailSettings).values(
    range(kinds.email_settings.count).map((i) => ({
      provider: i ? ('smtp' as const) : ('sendgrid' as const),
      isActive: i === 1,
      config: JSON.stringify(i ? { host: 'smtp.example.com', port: 587, secure: false } : { api_key: 'SG.x', from_email: 'a@example.com' }),
      createdAt: at(i),
      updatedAt: at(i),
    })),
  );
  const sources = await db
    .insert(t.blogSources)
    .values(
      range(kinds.blog_sources.count).map((i) => ({
        name: i === 0 ? UNICODE : `Source ${i}`,
        url: `https://feeds.example.com/${i}.xml`,
        type: i === 2 ? ('api' as const) : ('rss' as const),
        isActive: i !== 1,
        displayLimit: 1 + i * 4,
        config: i === 2 ? '{"headers":{"x":"y"}}' : null,
        lastFetched: i === 0 ? at(3) : null,
        lastError: i === 1 ? 'HTTP 500 from the feed' : null,
        createdAt: at(i),
        updatedAt: at(i),
      })),
    )
    .returning({ id: t.blogSources.id });
  await db.insert(t.externalBlogArticles).values(
    range(kinds.external_blog_articles.count).map((i) => ({
      sourceId: sources[i % sources.length]!.id,
      title: i === 0 ? UNICODE : `Article ${i}`,
      url: i === 0 ? LONG_URL : `https://news.example.com/${i}`,
      excerpt: i % 2 ? null : HTML,
      content: i % 3 ? null : HTML,
      author: i % 4 ? null : UNICODE,
      publishedAt: i % 2 ? null : at(i),
      imageUrl: i % 2 ? null : `https://img.example.com/${i}.jpg`,
      isVisible: i % 7 !== 0,
      externalId: i % 2 ? null : `guid-${i}`,
      fetchedAt: at(i + 1),
      createdAt: at(i + 1),
    })),
  );
  await db.insert(t.componentVisibilitySettings).values(
    range(kinds.component_visibility_settings.count).map((i) => ({
      componentKey: `component_${i}`,
      componentName: i === 0 ? UNICODE : `Component ${i}`,
      description: i === 1 ? '' : `What component ${i} shows`,
      isVisible: i % 3 !== 0,
      createdAt: at(i),
      updatedAt: at(i),
    })),
  );
  await db
    .insert(t.users)
    .values(range(kinds.users.count).map((i) => ({ username: i === 0 ? UNICODE : `admin${i}`, password: PASSWORD, role: 'admin', createdAt: at(i) })));
}

/** "1000.50" -> "1000.5", "0.00" -> "0": how DynamoDB writes a decimal back (computed without the code under test). */
const withoutTrailingZeros = (text: string) => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);

/** Every row of every kind against its item, field by field. Returns the number of rows compared. */
async function expectEveryRowIntact(database: Database, items: Map<string, Record<string, any>>): Promise<number> {
  const { db, t } = database;
  let compared = 0;
  for (const [kind, { table, entity }] of Object.entries(kinds) as [KindName, (typeof kinds)[KindName]][]) {
    const rows = (await db.select().from(t[table] as never)) as Record<string, unknown>[];
    expect(rows.length, kind).toBe(kinds[kind].count);
    for (const row of rows) {
      const item = items.get(`${entity}#${row.id}`);
      expect(item, `${kind} ${row.id} is in DynamoDB`).toBeDefined();
      expect(item!.SK).toBe(entity);
      expect(item!.kind).toBe(kind);
      const fields = Object.keys(row).filter((f) => !(kind === 'users' && f === 'password'));
      // Nothing but the row's fields, the kind and the key attributes.
      const extra = Object.keys(item!).filter((name) => !fields.includes(name) && name !== 'kind' && !/^(PK|SK|GSI\dPK|GSI\dSK)$/.test(name));
      expect(extra, `${kind} ${row.id} has only its row's fields`).toEqual([]);
      for (const field of fields) {
        const value = row[field];
        const actual = item![field];
        const where = `${kind}.${field} of ${row.id}`;
        if (value instanceof Date) {
          expect(actual, where).toBe(value.toISOString());
          expect(actual, where).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        } else if (kind === 'probate_calculations' && MONEY.includes(field)) {
          expect(actual, where).toBeInstanceOf(NumberValue);
          expect(actual.value, where).toBe(withoutTrailingZeros(String(value)));
        } else if (typeof value === 'number') {
          expect(actual, where).toBeInstanceOf(NumberValue);
          expect(actual.value, where).toBe(String(value));
        } else {
          expect(actual, where).toEqual(value);
        }
      }
      compared++;
    }
  }
  return compared;
}

// ---------------------------------------------------------------------------------------------
// The whole migration, from each dialect
// ---------------------------------------------------------------------------------------------

forEachDialect('migration to DynamoDB', (ctx) => {
  let a: Api;
  let tableName: string;
  let firstRun: MigrationRun;
  beforeAll(async () => {
    await seedEveryKind(ctx().database);
    const migration = settings(dynamo.endpoint);
    tableName = migration.tableName!;
    a = api(ctx().database, migration);
  });

  it('reports the table it will write in the status', async () => {
    const res = await a.call('GET', '/api/admin/migration/status');
    expect(res.body).toEqual({ postgresConfigured: true, awsConfigured: true, awsRegion: 'us-west-2', ready: true, database: ctx().dialect, tableName });
  });

  it('refuses to migrate or verify before the table exists, saying what to do', async () => {
    for (const path of ['/api/admin/migration/migrate', '/api/admin/migration/verify']) {
      const res = await a.call('POST', path);
      expect(res.status, path).toBe(409);
      expect(res.body.error).toBe(
        `The DynamoDB table "${tableName}" does not exist yet at ${dynamo.endpoint}: create it first (Generate Table Commands, or \`npm run migrate:dynamodb -- create-table\`).`,
      );
    }
    expect((await a.call('GET', '/api/admin/migration/run')).body).toEqual({ run: null });
  });

  it('creates the table (single-table design with three indexes); a second time is harmless', async () => {
    const first = await a.call('POST', '/api/admin/migration/create-table');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ tableName, created: true });
    expect(first.body.definition).toMatchObject({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
    });
    expect(first.body.definition.GlobalSecondaryIndexes.map((g: { IndexName: string }) => g.IndexName)).toEqual(['GSI1', 'GSI2', 'GSI3']);
    expect(first.body.cliCommand).toContain(`aws dynamodb create-table --region us-west-2 --endpoint-url ${dynamo.endpoint}`);
    expect(first.body.cliCommand).toContain(`--table-name ${tableName}`);
    expect(first.body.cliCommand).toContain('--key-schema AttributeName=PK,KeyType=HASH AttributeName=SK,KeyType=RANGE');
    expect(first.body.cliCommand).toContain(`aws dynamodb wait table-exists --region us-west-2 --endpoint-url ${dynamo.endpoint} --table-name ${tableName}`);

    const second = await a.call('POST', '/api/admin/migration/create-table');
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ ...first.body, created: false });

    const { client } = documents(dynamo.endpoint);
    const described = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table!;
    client.destroy();
    expect(described.TableStatus).toBe('ACTIVE');
    expect(described.GlobalSecondaryIndexes?.map((g) => g.IndexName).sort()).toEqual(['GSI1', 'GSI2', 'GSI3']);
  });

  it('migrates every kind, with progress per kind, and every row arrives intact, field by field', async () => {
    const started = await a.call<{ run: MigrationRun }>('POST', '/api/admin/migration/migrate');
    expect(started.status).toBe(202);
    expect(started.body.run.state).toBe('running');
    expect(started.body.run.kinds.map((k) => k.kind)).toEqual(Object.keys(kinds));
    expect(started.body.run.kinds.map((k) => k.total)).toEqual(Object.values(kinds).map((k) => k.count));

    firstRun = await runEnds(a);
    expect(firstRun).toMatchObject({ id: started.body.run.id, state: 'completed', error: null });
    expect(firstRun.finishedAt).not.toBeNull();
    for (const k of firstRun.kinds) expect(k, k.kind).toMatchObject({ done: kinds[k.kind].count, total: kinds[k.kind].count });

    const items = await allItems(dynamo.endpoint, tableName);
    expect(items.size).toBe(totalRows);
    expect(await expectEveryRowIntact(ctx().database, items)).toBe(totalRows);
    // The exact decimals of the awkward row, spelled out.
    const awkward = [...items.values()].find((i) => i.kind === 'probate_calculations' && i.estateValue.value === '1234567890.12');
    expect(awkward && MONEY.map((f) => awkward[f].value)).toEqual(['1234567890.12', '0.1', '0', '9999999999.99', '100.01', '0.01', '2500', '1000000.5']);
    // No password, in any form.
    expect(JSON.stringify([...items.values()])).not.toContain(PASSWORD);
  });

  it('puts the lookups of the design in the index attributes', async () => {
    const items = [...(await allItems(dynamo.endpoint, tableName)).values()];
    const post = items.find((i) => i.kind === 'blog_posts' && i.slug === 'post-1')!;
    expect(post).toMatchObject({ GSI2PK: 'POST_SLUG#post-1', GSI2SK: 'POST', GSI3PK: 'POSTS#PUBLISHED', GSI3SK: `${post.publishedAt}#${post.id}` });
    const draft = items.find((i) => i.kind === 'blog_posts' && i.slug === 'post-0')!;
    expect(draft).not.toHaveProperty('GSI3PK');
    const appointment = items.find((i) => i.kind === 'appointments' && i.status === 'cancelled')!;
    expect(appointment).toMatchObject({ GSI1PK: 'APPOINTMENTS', GSI3PK: 'APPOINTMENTS#cancelled', GSI3SK: `${appointment.scheduledDate}#${appointment.id}` });
    const component = items.find((i) => i.kind === 'component_visibility_settings' && i.componentKey === 'component_3')!;
    expect(component).toMatchObject({ GSI2PK: 'COMPONENT_KEY#component_3' });
    const longUrl = items.find((i) => i.kind === 'external_blog_articles' && i.url === LONG_URL)!;
    expect(longUrl.GSI2PK).toMatch(new RegExp(`^ARTICLE_URL#${longUrl.sourceId}#[0-9a-f]{64}$`));
    expect(longUrl.GSI3PK).toBe(`ARTICLES#SOURCE#${longUrl.sourceId}`);
  });

  it('verifies clean: the same counts on both sides and no mismatch', async () => {
    const res = await a.call<VerificationResult>('POST', '/api/admin/migration/verify');
    expect(res.status).toBe(200);
    expect(res.body.mismatches).toEqual([]);
    expect(res.body.ok).toBe(true);
    for (const k of res.body.kinds) expect(k, k.kind).toMatchObject({ source: kinds[k.kind].count, target: kinds[k.kind].count, mismatches: 0 });
  });

  it('a second run changes nothing: the same items, no duplicates', async () => {
    const before = await allItems(dynamo.endpoint, tableName);
    const started = await a.call<{ run: MigrationRun }>('POST', '/api/admin/migration/migrate');
    expect(started.status).toBe(202);
    expect(started.body.run.id).not.toBe(firstRun.id); // a completed run is final; this is a new one
    const second = await runEnds(a);
    expect(second.state).toBe('completed');
    const after = await allItems(dynamo.endpoint, tableName);
    expect(after.size).toBe(before.size);
    expect(Object.fromEntries(after)).toEqual(Object.fromEntries(before));
    expect((await a.call<VerificationResult>('POST', '/api/admin/migration/verify')).body.ok).toBe(true);
  });

  it('names a tampered, a missing and an extra item, and fails verification', async () => {
    const items = [...(await allItems(dynamo.endpoint, tableName)).values()];
    const testimonial = items.find((i) => i.kind === 'testimonials')!;
    const probate = items.find((i) => i.kind === 'probate_calculations')!;
    const contact = items.find((i) => i.kind === 'contact_submissions')!;
    const { doc, client } = documents(dynamo.endpoint);
    await doc.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { PK: testimonial.PK, SK: testimonial.SK },
        UpdateExpression: 'SET content = :c',
        ExpressionAttributeValues: { ':c': 'Edited in DynamoDB' },
      }),
    );
    await doc.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { PK: probate.PK, SK: probate.SK },
        UpdateExpression: 'SET savings = :s, attorneyFees = :f',
        ExpressionAttributeValues: { ':s': NumberValue.from('12.34'), ':f': NumberValue.from(`${probate.attorneyFees.value}1`) },
      }),
    );
    await doc.send(new DeleteCommand({ TableName: tableName, Key: { PK: contact.PK, SK: contact.SK } }));
    await doc.send(new PutCommand({ TableName: tableName, Item: { PK: 'APPOINTMENT#not-a-row', SK: 'APPOINTMENT', kind: 'appointments', id: 'not-a-row' } }));
    client.destroy();

    const res = await a.call<VerificationResult>('POST', '/api/admin/migration/verify');
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(false);
    expect(res.body.mismatches).toEqual([
      { kind: 'testimonials', id: testimonial.id, problem: 'field "content" differs' },
      { kind: 'contact_submissions', id: contact.id, problem: 'missing in DynamoDB' },
      { kind: 'probate_calculations', id: probate.id, problem: 'fields "attorneyFees", "savings" differ' },
      { kind: 'appointments', id: 'not-a-row', problem: 'in DynamoDB but not in the relational database' },
    ]);
    const byKind = Object.fromEntries(res.body.kinds.map((k) => [k.kind, k]));
    expect(byKind.contact_submissions).toMatchObject({ source: kinds.contact_submissions.count, target: kinds.contact_submissions.count - 1, mismatches: 1 });
    expect(byKind.appointments).toMatchObject({ source: kinds.appointments.count, target: kinds.appointments.count + 1, mismatches: 1 });
    expect(byKind.users).toMatchObject({ mismatches: 0 });
  });
});

// ---------------------------------------------------------------------------------------------
// Interruptions, retries, restarts
// ---------------------------------------------------------------------------------------------

forEachDialect('migration interrupted by DynamoDB going away', (ctx) => {
  let store: string;
  let peer: RunningDynalite;
  let a: Api;
  beforeAll(async () => {
    await seedEveryKind(ctx().database);
    store = mkdtempSync(join(tmpdir(), 'firm-dynalite-'));
    peer = await startDynalite({ path: store });
    a = api(ctx().database, settings(peer.endpoint, { tuning: { concurrency: 2, pageSize: 30 } }));
    expect((await a.call('POST', '/api/admin/migration/create-table')).status).toBe(200);
  });
  afterAll(async () => {
    await peer?.stop();
    rmSync(store, { recursive: true, force: true });
  });

  it('fails with a message naming the endpoint, keeps its checkpoints, and resumes from them after the restart', async () => {
    peer.resetCounts();
    peer.afterBatchWrites(6, () => void peer.stop());
    const started = await a.call<{ run: MigrationRun }>('POST', '/api/admin/migration/migrate');
    expect(started.status).toBe(202);
    const failed = await runEnds(a);
    expect(failed.id).toBe(started.body.run.id);
    expect(failed.state).toBe('failed');
    expect(failed.error).toContain(`DynamoDB did not answer at ${peer.endpoint}`);
    expect(failed.error).toMatch(/The migration stopped at .+ \(\d+ of \d+\); Start Migration resumes it from there\.$/);
    const doneBefore = failed.kinds.reduce((n, k) => n + k.done, 0);
    expect(doneBefore).toBeGreaterThan(0);
    expect(doneBefore).toBeLessThan(totalRows);

    // The same endpoint comes back with the same data.
    await peer.start();
    peer.resetCounts();
    const resumed = await a.call<{ run: MigrationRun }>('POST', '/api/admin/migration/migrate');
    expect(resumed.status).toBe(202);
    expect(resumed.body.run.id).toBe(failed.id);
    const done = await runEnds(a);
    expect(done).toMatchObject({ id: failed.id, state: 'completed', error: null });
    for (const k of done.kinds) expect(k, k.kind).toMatchObject({ done: kinds[k.kind].count, total: kinds[k.kind].count });
    // From the checkpoints: the rows confirmed before the failure were not written again.
    expect(peer.counts.items).toBeLessThanOrEqual(totalRows - doneBefore);
    expect(peer.counts.items).toBeGreaterThan(0);

    const verified = await a.call<VerificationResult>('POST', '/api/admin/migration/verify');
    expect(verified.body.mismatches).toEqual([]);
    expect(verified.body.ok).toBe(true);
    expect(await expectEveryRowIntact(ctx().database, await allItems(peer.endpoint, (await a.call('GET', '/api/admin/migration/status')).body.tableName))).toBe(
      totalRows,
    );
  });
});

forEachDialect('migration with throttled writes', (ctx) => {
  let a: Api;
  let failing: Api;
  let proxy: Awaited<ReturnType<typeof startDynamoProxy>>;
  let tableName: string;
  beforeAll(async () => {
    await seedEveryKind(ctx().database);
    proxy = await startDynamoProxy(dynamo.endpoint);
    const migration = settings(proxy.endpoint);
    tableName = migration.tableName!;
    // More attempts than forced answers: a batch left alone at the end of a run may meet all 12 in a
    // row (it did on a loaded CI machine), and that must still complete.
    a = api(ctx().database, { ...migration, tuning: { ...migration.tuning, maxAttempts: 20 } });
    failing = api(ctx().database, { ...migration, tuning: { ...migration.tuning, maxAttempts: 3 } });
    expect((await a.call('POST', '/api/admin/migration/create-table')).status).toBe(200);
  });
  afterAll(() => proxy?.close());

  it('fails the run, resumably, when DynamoDB keeps every item unprocessed past the attempts allowed', async () => {
    proxy.leaveUnprocessed(1_000_000, 'all');
    await failing.call('POST', '/api/admin/migration/migrate');
    const run = await runEnds(failing);
    expect(run.state).toBe('failed');
    // Batches run concurrently, so whichever batch (a full 25 or a page's remainder) runs out of
    // attempts first is the one the message names.
    const left = run.error?.match(/left (\d+) item\(s\) of testimonials unprocessed after 3 attempts \(capacity exceeded\)\./);
    expect(run.error).toContain(`DynamoDB at ${proxy.endpoint} left `);
    expect(Number(left?.[1])).toBeGreaterThan(0);
    expect(Number(left?.[1])).toBeLessThanOrEqual(25);
    expect(run.kinds[0]).toMatchObject({ kind: 'testimonials', done: 0 });
  });

  it('retries UnprocessedItems with backoff until every item is written', async () => {
    proxy.leaveUnprocessed(12, 'half');
    const callsBefore = proxy.batchWrites;
    const answersBefore = proxy.unprocessedAnswers;
    const started = await a.call<{ run: MigrationRun }>('POST', '/api/admin/migration/migrate');
    expect(started.status).toBe(202);
    const run = await runEnds(a);
    expect(run.state, run.error ?? '').toBe('completed');
    expect(proxy.unprocessedAnswers - answersBefore).toBe(12);
    // One call per batch, plus one more for what each forced answer left unprocessed.
    const pageSize = tuning!.pageSize!;
    const batchesOf = (n: number) => Math.floor(n / pageSize) * Math.ceil(pageSize / 25) + Math.ceil((n % pageSize) / 25);
    const batches = Object.values(kinds).reduce((n, k) => n + batchesOf(k.count), 0);
    expect(proxy.batchWrites - callsBefore).toBe(batches + 12);
    const verified = await a.call<VerificationResult>('POST', '/api/admin/migration/verify');
    expect(verified.body.ok).toBe(true);
    expect((await allItems(dynamo.endpoint, tableName)).size).toBe(totalRows);
  });
});

forEachDialect('migration whose server stopped midway', (ctx) => {
  let proxy: Awaited<ReturnType<typeof startDynamoProxy>>;
  let first: Api;
  let restarted: Api;
  beforeAll(async () => {
    await seedEveryKind(ctx().database);
    proxy = await startDynamoProxy(dynamo.endpoint);
    const migration = settings(dynamo.endpoint, { tuning: { concurrency: 1, pageSize: 25 } });
    // The first server reaches DynamoDB through a proxy that will stall; the restarted one goes direct,
    // and its clock is an hour on, past the first one's lease.
    first = api(ctx().database, { ...migration, endpoint: proxy.endpoint });
    const later = { now: () => new Date(Date.now() + 3_600_000) };
    restarted = api(ctx().database, migration, { clock: later });
    expect((await restarted.call('POST', '/api/admin/migration/create-table')).status).toBe(200);
  });
  afterAll(() => proxy?.close());

  it('finds the run interrupted once its lease ran out, and the next Start Migration resumes it', async () => {
    const started = await first.call<{ run: MigrationRun }>('POST', '/api/admin/migration/migrate');
    expect(started.status).toBe(202);
    // Let a checkpoint reach the database, then the first server stops getting answers (as if it had died).
    const { db, t } = ctx().database;
    for (;;) {
      const [row] = await db.select().from(t.migrationRuns);
      if ((JSON.parse(row!.progress).testimonials?.done ?? 0) >= 25) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    proxy.hold();
    // The first server still holds the run: to itself it is running; Start Migration answers with it,
    // and Verify waits for it.
    expect((await first.call('GET', '/api/admin/migration/run')).body.run.state).toBe('running');
    const again = await first.call<{ run: MigrationRun }>('POST', '/api/admin/migration/migrate');
    expect(again.status).toBe(202);
    expect(again.body.run).toMatchObject({ id: started.body.run.id, state: 'running' });
    const early = await first.call('POST', '/api/admin/migration/verify');
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('A migration is running: verify it once it has completed.');

    const seen = await restarted.call<{ run: MigrationRun }>('GET', '/api/admin/migration/run');
    expect(seen.body.run).toMatchObject({ id: started.body.run.id, state: 'interrupted' });
    expect(seen.body.run.error).toBe(
      'The migration stopped before it finished (its server restarted or lost its connection). Start Migration resumes it from its checkpoints.',
    );
    const doneBefore = seen.body.run.kinds.reduce((n, k) => n + k.done, 0);
    expect(doneBefore).toBeGreaterThanOrEqual(25);

    const resumed = await restarted.call<{ run: MigrationRun }>('POST', '/api/admin/migration/migrate');
    expect(resumed.status).toBe(202);
    expect(resumed.body.run.id).toBe(started.body.run.id);
    const done = await runEnds(restarted);
    expect(done).toMatchObject({ id: started.body.run.id, state: 'completed' });
    proxy.release();
    // The first server lost the run: it stops and writes nothing more to it.
    const after = (await restarted.call<{ run: MigrationRun }>('GET', '/api/admin/migration/run')).body.run;
    expect(after).toMatchObject({ id: started.body.run.id, state: 'completed' });
    expect((await restarted.call<VerificationResult>('POST', '/api/admin/migration/verify')).body.ok).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// Not ready, unreachable, not allowed
// ---------------------------------------------------------------------------------------------

forEachDialect(
  'migration calls when AWS is not configured',
  (ctx) => {
    it("answers 503 with SPEC §8's setup message, and no run", async () => {
      for (const path of ['/api/admin/migration/create-table', '/api/admin/migration/migrate', '/api/admin/migration/verify']) {
        const res = await ctx().admin('POST', path);
        expect(res.status, path).toBe(503);
        expect(res.body.error).toBe('AWS credentials not configured. Please check your environment configuration.');
      }
      expect((await ctx().admin('GET', '/api/admin/migration/run')).body).toEqual({ run: null });
    });

    it('names the relational database too when it does not answer', async () => {
      const database = { ...ctx().database, ping: () => Promise.reject(new Error('connection refused')) };
      const res = await api(database, { awsConfigured: false, awsRegion: null }).call('POST', '/api/admin/migration/create-table');
      expect(res.status).toBe(503);
      const name = ctx().dialect === 'postgres' ? 'PostgreSQL' : 'SQLite';
      expect(res.body.error).toBe(`${name} not connected. AWS credentials not configured. Please check your environment configuration.`);
    });

    it('says where DynamoDB did not answer', async () => {
      const closed = await startDynalite();
      await closed.stop();
      const res = await api(ctx().database, settings(closed.endpoint)).call('POST', '/api/admin/migration/create-table');
      expect(res.status).toBe(503);
      expect(res.body.error).toMatch(
        new RegExp(
          `^DynamoDB did not answer at ${closed.endpoint} \\(ECONNREFUSED.*\\)\\. Check DYNAMODB_ENDPOINT or AWS_REGION and the network, then try again\\.$`,
        ),
      );
    });

    it('are admin calls', async () => {
      for (const [method, path] of [
        ['POST', '/api/admin/migration/create-table'],
        ['POST', '/api/admin/migration/migrate'],
        ['GET', '/api/admin/migration/run'],
        ['POST', '/api/admin/migration/verify'],
      ] as const) {
        expect((await ctx().call(method, path)).status, path).toBe(401);
        expect((await ctx().call(method, path, { token: NON_ADMIN_TOKEN })).status, path).toBe(403);
      }
    });
  },
  { migration: { awsConfigured: false, awsRegion: null } },
);

// ---------------------------------------------------------------------------------------------
// The operator command (npm run migrate:dynamodb), as a separate process
// ---------------------------------------------------------------------------------------------

forEachDialect('npm run migrate:dynamodb', (ctx) => {
  let env: Record<string, string>;
  const tableName = `firm-cli-${randomUUID().slice(0, 8)}`;
  const command = async (...args: string[]) => {
    const child = spawn(process.execPath, ['scripts/migrate-dynamodb.ts', ...args], { cwd: new URL('../..', import.meta.url).pathname, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    return { code, out, err };
  };
  beforeAll(async () => {
    await seedEveryKind(ctx().database);
    const location = ctx().database.location;
    env = {
      PATH: process.env.PATH ?? '',
      ...(ctx().dialect === 'postgres' ? { DATABASE_URL: location } : { DATABASE_URL: '', SQLITE_PATH: location }),
      AWS_REGION: 'us-west-2',
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      DYNAMODB_TABLE: tableName,
    };
  });

  it('creates the table, migrates with plain progress lines off a terminal, and verifies (exit 0)', async () => {
    const created = await command('create-table');
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    expect(created.out).toContain(`Created table "${tableName}" (ACTIVE).`);
    expect(created.out).toContain(`--table-name ${tableName}`);

    const migrated = await command('migrate');
    expect(migrated.err).toBe('');
    expect(migrated.code).toBe(0);
    expect(migrated.out).toContain(`Testimonials: ${kinds.testimonials.count}/${kinds.testimonials.count}\n`);
    expect(migrated.out).toContain(`User data: ${kinds.users.count}/${kinds.users.count}\n`);
    expect(migrated.out).toContain(`Migration Completed: ${totalRows} of ${totalRows} rows.`);
    expect(migrated.out).not.toContain('\x1b[');

    const verified = await command('verify');
    expect(verified.code).toBe(0);
    expect(verified.out).toContain('Verification Complete: every item matches.');
    // What the admin sees in the wizard is the same run.
    const run = await api(ctx().database, settings(dynamo.endpoint, { tableName })).call<{ run: MigrationRun }>('GET', '/api/admin/migration/run');
    expect(run.body.run).toMatchObject({ state: 'completed' });
  }, 90_000);

  it('exits 1 naming the item when verification finds a mismatch, and 2 on a usage error', async () => {
    const items = [...(await allItems(dynamo.endpoint, tableName)).values()];
    const post = items.find((i) => i.kind === 'blog_posts')!;
    const { doc, client } = documents(dynamo.endpoint);
    await doc.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { PK: post.PK, SK: post.SK },
        UpdateExpression: 'SET slug = :s',
        ExpressionAttributeValues: { ':s': 'tampered' },
      }),
    );
    client.destroy();
    const verified = await command('verify');
    expect(verified.code).toBe(1);
    expect(verified.out).toContain(`  blog_posts ${post.id}: field "slug" differs\n`);
    expect(verified.out).toContain('Verification Failed: 1 mismatch(es).');

    const usage = await command('copy-everything');
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('unknown command "copy-everything"');
    const help = await command('--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: npm run migrate:dynamodb -- <command> [options]');
  }, 90_000);
});
