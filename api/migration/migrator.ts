/**
 * Copies one kind: the rows after the kind's checkpoint, read in id order in keyset pages, written as
 * BatchWriteItem calls of 25 items with `concurrency` calls in flight while the next page is read.
 * Batches can finish out of order; the checkpoint only moves past a batch once every batch before it
 * is written too, so resuming from it never skips a row (it may rewrite a few: puts keyed by the row
 * id leave the same item, docs/decisions/011).
 */
import type { MigrationKind } from '../../src/shared/migration.ts';
import { BATCH_WRITE_MAX, writeBatch, type BatchStats, type DynamoTarget } from './dynamodb.ts';
import { mappingOf, toItem, type Item } from './items.ts';
import type { KindCheckpoint, sourceRepository } from './migration.repository.ts';
import type { MigrationTuning } from './migration-tuning.ts';

export interface CopyContext {
  source: ReturnType<typeof sourceRepository>;
  target: DynamoTarget;
  tuning: MigrationTuning;
  /** Cuts off the calls in flight (the run was taken over, or a stop ran out of time). */
  signal: AbortSignal;
  /** A graceful stop: no new batch, the ones in flight finish and count in the checkpoint. */
  halt?: AbortSignal;
  stats?: BatchStats;
}

interface Batch {
  items: Item[];
  lastId: string;
}

/**
 * Runs until the kind is copied, or stopped; `checkpoint` is updated in place as batches are confirmed.
 */
export async function copyKind(ctx: CopyContext, kind: MigrationKind, checkpoint: KindCheckpoint): Promise<void> {
  const mapping = mappingOf(kind);
  const { concurrency, pageSize } = ctx.tuning;
  const inFlight = new Set<Promise<void>>();
  const finished = new Map<number, Batch>();
  let next = 0;
  let confirmed = 0;
  let failure: unknown = null;
  const stopped = () => ctx.signal.aborted || Boolean(ctx.halt?.aborted);

  const confirm = (seq: number, batch: Batch) => {
    finished.set(seq, batch);
    for (let b = finished.get(confirmed); b; b = finished.get(confirmed)) {
      finished.delete(confirmed++);
      checkpoint.after = b.lastId;
      checkpoint.done += b.items.length;
    }
  };

  let after = checkpoint.after;
  for (;;) {
    if (failure || stopped()) break;
    const rows = await ctx.source.page(kind, after, pageSize);
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    for (let i = 0; i < rows.length && !failure; i += BATCH_WRITE_MAX) {
      const slice = rows.slice(i, i + BATCH_WRITE_MAX);
      const batch: Batch = { items: slice.map((row) => toItem(mapping, row)), lastId: slice[slice.length - 1]!.id };
      while (inFlight.size >= concurrency) await Promise.race(inFlight);
      if (failure || stopped()) break;
      const seq = next++;
      const write: Promise<void> = writeBatch(ctx.target, batch.items, ctx.tuning, { signal: ctx.signal, halt: ctx.halt, stats: ctx.stats, describe: kind })
        .then(
          () => confirm(seq, batch),
          (err) => {
            failure ??= err;
          },
        )
        .finally(() => inFlight.delete(write));
      inFlight.add(write);
    }
    if (rows.length < pageSize) break;
  }
  // On a stop too: the batches in flight finish, and what they wrote moves the checkpoint.
  await Promise.all(inFlight);
  if (failure) throw failure;
  if (stopped()) throw ctx.signal.reason ?? ctx.halt?.reason ?? new Error('aborted');
  checkpoint.complete = true;
  // Rows added or deleted while the kind was copied: what was copied is the total; the bar ends full.
  checkpoint.total = checkpoint.done;
}
