/**
 * The DynamoDB migration at scale: 100,000 rows of mixed kinds in a fresh SQLite file,
 * migrated by the real service (keyset pages, 25-item BatchWriteItem calls, several in flight,
 * checkpoints) into dynalite running in a child process, beside a plain sequential BatchWriteItem
 * loop writing the same items (prepared in memory beforehand) to the same dynalite in the same run
 * (half before the migration, half after).
 * Goal: the migration at least 0.8 of the loop's items per second. Then Verify reads it all back.
 * Part of `npm run bench`; alone: `node bench/migration.ts [rows]` (prints JSON, then a line of text).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { systemClock } from '../api/clock.ts';
import { createLogger } from '../api/logger.ts';
import { dynamoTarget } from '../api/migration/dynamodb.ts';
import { kindMappings, toItem, type Item } from '../api/migration/items.ts';
import { sourceRepository } from '../api/migration/migration.repository.ts';
import { createMigrationService } from '../api/migration/migration.service.ts';
import { defaultTuning } from '../api/migration/migration-tuning.ts';
import { tableDefinition } from '../api/migration/table-design.ts';
import { openDatabase, type Database } from '../db/client.ts';

const root = new URL('..', import.meta.url).pathname;

export interface MigrationBenchResult {
  rows: number;
  /** The machine's load average (1, 5, 15 min) at the end: other work skews both writers. */
  loadAverage: number[];
  rowsByKind: Record<string, number>;
  concurrency: number;
  /** The plain loop: one BatchWriteItem of 25 prepared items at a time. */
  baseline: { seconds: number; itemsPerSecond: number };
  /** The service, from the SQLite file to DynamoDB, checkpoints included. */
  migration: { seconds: number; itemsPerSecond: number; state: string };
  ratio: number;
  verify: { seconds: number; ok: boolean; mismatches: number };
}

/** dynalite in a process of its own (its own core), on a free port. */
async function startDynalite(): Promise<{ child: ChildProcess; endpoint: string }> {
  const script = `const s = require('dynalite')({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }); s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;
  const child = spawn(process.execPath, ['-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', () => reject(new Error('dynalite exited during start')));
    child.stdout!.once('data', (d) => resolve(String(d).trim()));
  });
  return { child, endpoint: `http://127.0.0.1:${port}` };
}

/** Mixed kinds, as a firm's data would be after years: mostly submissions, appointments and calculations. */
const mix = { contact_submissions: 0.3, appointments: 0.25, probate_calculations: 0.2, testimonials: 0.1, blog_posts: 0.1, external_blog_articles: 0.05 };

async function seed({ db, t }: Database, rows: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const at = (i: number) => new Date(Date.UTC(2020, 0, 1) + i * 60_000);
  const chunked = async <T>(n: number, make: (i: number) => T, insert: (values: T[]) => Promise<unknown>) => {
    for (let i = 0; i < n; i += 500) await insert(Array.from({ length: Math.min(500, n - i) }, (_, k) => make(i + k)));
  };
  const n = (share: number) => Math.floor(rows * share);
  counts.contact_submissions = n(mix.contact_submissions);
  await chunked(
    counts.contact_submissions,
    (i) => ({
      firstName: `First ${i}`,
      lastName: 'Núñez',
      email: `p${i}@example.com`,
      phone: i % 2 ? null : '(619) 555-0100',
      practiceArea: 'family-law',
      message: `Message ${i}: we need help with a custody arrangement for our two children.`,
      createdAt: at(i),
    }),
    (v) => db.insert(t.contactSubmissions).values(v),
  );
  counts.appointments = n(mix.appointments);
  await chunked(
    counts.appointments,
    (i) => ({
      firstName: `First ${i}`,
      lastName: 'Ångström',
      email: `a${i}@example.com`,
      consultationType: 'initial',
      scheduledDate: at(i * 30),
      status: 'completed',
      practiceArea: 'divorce',
      notes: i % 3 ? null : '<p>Bring the trust documents</p>',
      createdAt: at(i),
      updatedAt: at(i),
    }),
    (v) => db.insert(t.appointments).values(v),
  );
  counts.probate_calculations = n(mix.probate_calculations);
  await chunked(
    counts.probate_calculations,
    (i) => ({
      estateValue: `${1_000_000 + i}.10`,
      realEstateValue: `${800_000 + i}.00`,
      attorneyFees: '23000.00',
      executorFees: '23000.00',
      courtCosts: '3000.00',
      totalProbate: '49000.00',
      trustCost: '3000.00',
      savings: '46000.00',
      userEmail: i % 2 ? null : `e${i}@example.com`,
      createdAt: at(i),
    }),
    (v) => db.insert(t.probateCalculations).values(v),
  );
  counts.testimonials = n(mix.testimonials);
  await chunked(
    counts.testimonials,
    (i) => ({
      clientName: `Client ${i}`,
      rating: 5,
      content: 'They guided our family through probate with patience and clarity.',
      practiceArea: 'estate-planning',
      createdAt: at(i),
      updatedAt: at(i),
    }),
    (v) => db.insert(t.testimonials).values(v),
  );
  counts.blog_posts = n(mix.blog_posts);
  await chunked(
    counts.blog_posts,
    (i) => ({
      title: `Post ${i}`,
      slug: `post-${i}`,
      excerpt: 'What a living trust does.',
      content: `<p>${'A living trust avoids probate. '.repeat(20)}</p>`,
      category: 'probate',
      isPublished: i % 2 === 0,
      publishedAt: i % 2 === 0 ? at(i) : null,
      createdAt: at(i),
      updatedAt: at(i),
    }),
    (v) => db.insert(t.blogPosts).values(v),
  );
  const [source] = await db
    .insert(t.blogSources)
    .values({ name: 'Bench feed', url: 'https://feeds.example.com/bench.xml' })
    .returning({ id: t.blogSources.id });
  counts.blog_sources = 1;
  counts.external_blog_articles = rows - Object.values(counts).reduce((a, b) => a + b, 0);
  await chunked(
    counts.external_blog_articles,
    (i) => ({
      sourceId: source!.id,
      title: `Article ${i}`,
      url: `https://news.example.com/${i}`,
      excerpt: 'News about estate law.',
      publishedAt: at(i),
      createdAt: at(i),
    }),
    (v) => db.insert(t.externalBlogArticles).values(v),
  );
  return counts;
}

export async function migrationBench(options: { rows?: number; concurrency?: number } = {}): Promise<MigrationBenchResult> {
  const rows = options.rows ?? 100_000;
  const concurrency = options.concurrency ?? defaultTuning.concurrency;
  const dir = mkdtempSync(join(tmpdir(), 'firm-bench-migration-'));
  const database = await openDatabase({ sqlitePath: join(dir, 'site.db') });
  const dynalite = await startDynalite();
  try {
    const rowsByKind = await seed(database, rows);
    const settings = { awsConfigured: true, awsRegion: 'us-west-2', endpoint: dynalite.endpoint };

    // The baseline's items, prepared before its clock starts: the same rows, the same mapping.
    const target = dynamoTarget({ ...settings, tableName: 'bench-baseline' }, defaultTuning);
    for (const tableName of ['bench-baseline', 'bench-migration']) await target.client.send(new CreateTableCommand(tableDefinition(tableName)));
    const source = sourceRepository(database);
    const items: Item[] = [];
    for (const mapping of kindMappings) {
      for (let after: string | null = null; ; ) {
        const page = await source.page(mapping.kind, after, 5_000);
        if (!page.length) break;
        after = page[page.length - 1]!.id;
        for (const row of page) items.push(toItem(mapping, row));
      }
    }
    if (items.length !== rows) throw new Error(`seeded ${items.length} rows, expected ${rows}`);

    // The loop writes half its items before the migration and half after, so both see the same
    // machine (other work on it, dynalite's growing store) on average.
    const loop = async (from: number, to: number) => {
      const began = performance.now();
      for (let i = from; i < to; i += 25) {
        let pending = items.slice(i, Math.min(i + 25, to)).map((Item) => ({ PutRequest: { Item } }));
        while (pending.length) {
          const out = await target.doc.send(new BatchWriteCommand({ RequestItems: { 'bench-baseline': pending } }));
          pending = (out.UnprocessedItems?.['bench-baseline'] ?? []) as typeof pending;
        }
      }
      return (performance.now() - began) / 1000;
    };
    const half = Math.floor(items.length / 50) * 25;
    let baselineSeconds = await loop(0, half);

    const service = createMigrationService({
      database,
      clock: systemClock,
      log: createLogger({ silent: true }),
      migration: { ...settings, tableName: 'bench-migration', tuning: { concurrency } },
    });
    let started = performance.now();
    const { finished } = await service.startMigration();
    const run = await finished!;
    const migrationSeconds = (performance.now() - started) / 1000;

    baselineSeconds += await loop(half, items.length);
    target.close();

    started = performance.now();
    const verified = await service.verify();
    const verifySeconds = (performance.now() - started) / 1000;
    await service.stop();

    const round = (x: number, places = 2) => Math.round(x * 10 ** places) / 10 ** places;
    const baseline = { seconds: round(baselineSeconds), itemsPerSecond: Math.round(rows / baselineSeconds) };
    const migration = { seconds: round(migrationSeconds), itemsPerSecond: Math.round(rows / migrationSeconds), state: run.state };
    return {
      rows,
      loadAverage: loadavg().map((x) => round(x)),
      rowsByKind,
      concurrency,
      baseline,
      migration,
      ratio: round(migration.itemsPerSecond / baseline.itemsPerSecond),
      verify: { seconds: round(verifySeconds), ok: verified.ok, mismatches: verified.kinds.reduce((n, k) => n + k.mismatches, 0) },
    };
  } finally {
    dynalite.child.kill();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const migrationLine = (r: MigrationBenchResult) =>
  `migration: ${r.rows} rows, ${r.migration.itemsPerSecond} items/s (${r.migration.seconds} s, ${r.concurrency} batches in flight, ${r.migration.state}) vs plain sequential BatchWriteItem loop ${r.baseline.itemsPerSecond} items/s (${r.baseline.seconds} s): ratio ${r.ratio} (goal >= 0.8); verify ${r.verify.ok ? 'clean' : `${r.verify.mismatches} mismatches`} in ${r.verify.seconds} s`;

/** The report's section (bench/report.md). */
export function migrationMarkdown(r: MigrationBenchResult): string[] {
  return [
    '## Migration to DynamoDB',
    '',
    `${r.rows.toLocaleString('en-US')} rows of mixed kinds (${Object.entries(r.rowsByKind)
      .map(([k, n]) => `${k} ${n}`)
      .join(
        ', ',
      )}) in a SQLite file, migrated to dynalite in a child process by the service (\`bench/migration.ts\`), beside a plain sequential BatchWriteItem loop of the same items, prepared in memory, against the same dynalite in the same run (half of its items before the migration, half after). Load average at the end: ${r.loadAverage.join(', ')} (other work on the machine slows both).`,
    '',
    '| writer | seconds | items/s |',
    '|---|---:|---:|',
    `| plain BatchWriteItem loop, one call at a time | ${r.baseline.seconds} | ${r.baseline.itemsPerSecond} |`,
    `| migration (read, map, ${r.concurrency} calls in flight, checkpoints) | ${r.migration.seconds} | ${r.migration.itemsPerSecond} |`,
    '',
    `Ratio: **${r.ratio}** of the loop (goal at least 0.8). Verify (every item read back and compared): ${r.verify.ok ? 'clean' : `${r.verify.mismatches} mismatches`} in ${r.verify.seconds} s.`,
  ];
}

if (import.meta.main) {
  const rows = process.argv[2] ? Number(process.argv[2]) : undefined;
  const result = await migrationBench({ rows });
  console.log(JSON.stringify(result, null, 2));
  console.log(migrationLine(result));
}
