/**
 * Verify (SPEC §4 Migration wizard): per kind, the rows on the relational side and the
 * items in DynamoDB are counted, and every row is compared field by field with its item.
 * - Relational side: keyset pages in id order; each page's items fetched with BatchGetItem (consistent
 *   reads), several calls in flight.
 * - DynamoDB side: a parallel Scan of the keys only, to count each kind's items and find the ones no
 *   row accounts for (extras).
 * Every mismatch is counted; the first 500 are listed (missing, extra, which fields differ; never
 * the values, which may be personal data or secrets).
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { migrationKinds, type MigrationKind, type VerificationMismatch, type VerificationResult } from '../../src/shared/migration.ts';
import { BATCH_GET_MAX, describeDynamoError, getBatch, type DynamoTarget } from './dynamodb.ts';
import { differingAttributes, itemKey, kindMappings, kindOfKey, toItem, type Item } from './items.ts';
import type { sourceRepository } from './migration.repository.ts';
import type { MigrationTuning } from './migration-tuning.ts';

export const MAX_LISTED_MISMATCHES = 500;
const SCAN_SEGMENTS = 4;

export interface VerifyContext {
  source: ReturnType<typeof sourceRepository>;
  target: DynamoTarget;
  tuning: MigrationTuning;
}

const fieldsProblem = (fields: string[]) => (fields.length === 1 ? `field "${fields[0]}" differs` : `fields ${fields.map((f) => `"${f}"`).join(', ')} differ`);

export async function verifyMigration(ctx: VerifyContext): Promise<VerificationResult> {
  const mismatches: VerificationMismatch[] = [];
  const perKind = new Map<MigrationKind, { source: number; target: number; mismatches: number }>();
  const sourceIds = new Map<MigrationKind, Set<string>>();
  const note = (kind: MigrationKind, id: string, problem: string) => {
    perKind.get(kind)!.mismatches++;
    if (mismatches.length < MAX_LISTED_MISMATCHES) mismatches.push({ kind, id, problem });
  };

  for (const mapping of kindMappings) {
    perKind.set(mapping.kind, { source: 0, target: 0, mismatches: 0 });
    const ids = new Set<string>();
    sourceIds.set(mapping.kind, ids);
    for (let after: string | null = null; ; ) {
      const rows = await ctx.source.page(mapping.kind, after, ctx.tuning.pageSize);
      if (rows.length === 0) break;
      after = rows[rows.length - 1]!.id;
      perKind.get(mapping.kind)!.source += rows.length;
      for (const row of rows) ids.add(row.id);
      const chunks: Item[][] = [];
      const expected = rows.map((row) => toItem(mapping, row));
      for (let i = 0; i < expected.length; i += BATCH_GET_MAX) chunks.push(expected.slice(i, i + BATCH_GET_MAX));
      const found = new Map<string, Item>();
      await inParallel(chunks, ctx.tuning.concurrency, async (chunk) => {
        const keys = chunk.map((item) => ({ PK: item.PK as string, SK: item.SK as string }));
        for (const item of await getBatch(ctx.target, keys, ctx.tuning)) found.set(String(item.PK), item);
      });
      for (const [i, item] of expected.entries()) {
        const id = rows[i]!.id;
        const actual = found.get(itemKey(mapping, id).PK);
        if (!actual) {
          note(mapping.kind, id, 'missing in DynamoDB');
          continue;
        }
        const fields = differingAttributes(item, actual);
        if (fields.length) note(mapping.kind, id, fieldsProblem(fields));
      }
      if (rows.length < ctx.tuning.pageSize) break;
    }
  }

  // The DynamoDB side: every item's key, to count each kind and find extras.
  const extras: { kind: MigrationKind; id: string }[] = [];
  await inParallel([...Array(SCAN_SEGMENTS).keys()], SCAN_SEGMENTS, async (segment) => {
    let start: Record<string, unknown> | undefined;
    do {
      let out;
      try {
        out = await ctx.target.doc.send(
          new ScanCommand({
            TableName: ctx.target.tableName,
            Segment: segment,
            TotalSegments: SCAN_SEGMENTS,
            ProjectionExpression: 'PK, SK',
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        );
      } catch (err) {
        throw describeDynamoError(err, ctx.target);
      }
      for (const item of out.Items ?? []) {
        const key = kindOfKey(item.PK, item.SK);
        if (!key) continue; // not an item of the migration
        perKind.get(key.kind)!.target++;
        if (!sourceIds.get(key.kind)!.has(key.id)) extras.push(key);
      }
      start = out.LastEvaluatedKey;
    } while (start);
  });
  extras.sort((a, b) => migrationKinds.findIndex((k) => k.kind === a.kind) - migrationKinds.findIndex((k) => k.kind === b.kind) || (a.id < b.id ? -1 : 1));
  for (const extra of extras) note(extra.kind, extra.id, 'in DynamoDB but not in the relational database');

  const kinds = migrationKinds.map(({ kind, label }) => ({ kind, label, ...perKind.get(kind)! }));
  const ok = kinds.every((k) => k.mismatches === 0 && k.source === k.target);
  return { ok, kinds, mismatches };
}

/** Runs `work` over `items`, at most `limit` at a time; the first failure is thrown after the rest settle. */
async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let index = 0;
  let failure: unknown = null;
  const worker = async () => {
    while (index < items.length && !failure) {
      const item = items[index++]!;
      try {
        await work(item);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure;
}
