/**
 * The delivery queue (docs/decisions/010): services enqueue work for the outside world, the
 * runner delivers it. A handler per channel does the sending; it returns what happened, or throws:
 * a thrown error is retried with backoff (and recorded), a PermanentDeliveryError is not retried.
 * Delivery is at least once: a process that dies mid-send leaves the row 'sending', and once its
 * lease runs out another run sends it again, so peers that can dedupe get an idempotency key
 * (the delivery id).
 */
import type { Database } from '../../db/client.ts';
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import { maskUrlsInText } from '../crypto/secret-masking.ts';
import { deliveriesRepository, type Delivery, type DeliveryChannel, type NewDelivery } from './deliveries.repository.ts';

export type { Delivery, DeliveryChannel, NewDelivery };

/** Waits between attempts: 30 s, 2 min, 10 min, 30 min, 2 h, 6 h; after the 7th attempt it has failed. */
export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000, 7_200_000, 21_600_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** How long a claimed delivery is held before another run may take it over. */
export const LEASE_MS = 120_000;

/** A failure that retrying cannot fix (bad credentials, a refused address): recorded, not retried. */
export class PermanentDeliveryError extends Error {}

/** `recipient`: where it went, when the handler knows better than the queued row (it replaces the row's). */
/** `held`: kept where an admin can read it and send it later (the development outbox), not sent. */
export type DeliveryOutcome = (
  | { status: 'sent'; externalRef?: string | null; externalCalendar?: string | null }
  | { status: 'held'; externalRef: string }
  | { status: 'skipped'; reason: string }
) & { recipient?: string };
export type DeliveryHandler = (delivery: Delivery, payload: unknown) => Promise<DeliveryOutcome>;

export interface DeliveryQueue {
  /** Stores a delivery (null when its dedupeKey exists already) and wakes the runner. */
  enqueue(delivery: NewDelivery): Promise<Delivery | null>;
  /** Deliveries were stored by another transaction (the outbox, decision 022): wakes the runner as enqueue does. */
  queued(): void;
  /** Called after each enqueue (the runner listens, to deliver at once). */
  onEnqueued(listener: () => void): () => void;
}

export function createDeliveryQueue({ database, clock }: { database: Database; clock: Clock }): DeliveryQueue {
  const repo = deliveriesRepository(database);
  const listeners = new Set<() => void>();
  const queued = () => {
    for (const listener of listeners) listener();
  };
  return {
    async enqueue(delivery) {
      const row = await repo.insert(delivery, clock.now());
      if (row) queued();
      return row;
    },
    queued,
    onEnqueued(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Error text kept in the log: one line, bounded, URLs' secrets masked. */
export function describeError(err: unknown): string {
  const text = err instanceof Error ? err.message || err.name : String(err);
  return maskUrlsInText(text.replace(/\s+/g, ' ').trim().slice(0, 500))!;
}

export interface DeliveryRunner {
  /** Delivers everything due now; resolves with how many deliveries it ran. One run at a time. */
  runDue(): Promise<number>;
}

export function createDeliveryRunner({
  database,
  clock,
  log,
  handlers,
  batchSize = 25,
  concurrency = 4,
  stopped = () => false,
}: {
  database: Database;
  clock: Clock;
  log: Logger;
  handlers: Record<DeliveryChannel, DeliveryHandler>;
  batchSize?: number;
  /** Deliveries sent at once (to different appointments; one appointment's stay in order). */
  concurrency?: number;
  /** True once the server is shutting down: a run ends after the deliveries in hand, the rest waits for the next start. */
  stopped?: () => boolean;
}): DeliveryRunner {
  const repo = deliveriesRepository(database);
  let running: Promise<number> | null = null;
  let again = false;

  async function deliver(claimed: Delivery): Promise<void> {
    try {
      const outcome = await handlers[claimed.channel as DeliveryChannel](claimed, JSON.parse(claimed.payload));
      const recipient = outcome.recipient;
      if (outcome.status === 'sent')
        await repo.finish(claimed.id, 'sent', {
          now: clock.now(),
          externalRef: outcome.externalRef ?? null,
          externalCalendar: outcome.externalCalendar ?? null,
          recipient,
        });
      else if (outcome.status === 'held') await repo.finish(claimed.id, 'held', { now: clock.now(), externalRef: outcome.externalRef, recipient });
      else await repo.finish(claimed.id, 'skipped', { now: clock.now(), lastError: outcome.reason, recipient });
      log.info('delivery done', {
        deliveryId: claimed.id,
        channel: claimed.channel,
        purpose: claimed.purpose,
        status: outcome.status,
        attempt: claimed.attempts,
      });
    } catch (err) {
      const lastError = describeError(err);
      const permanent = err instanceof PermanentDeliveryError;
      if (permanent || claimed.attempts >= MAX_ATTEMPTS) {
        await repo.finish(claimed.id, 'failed', { now: clock.now(), lastError });
        log.error('delivery failed', { deliveryId: claimed.id, channel: claimed.channel, purpose: claimed.purpose, attempt: claimed.attempts, err: lastError });
      } else {
        const wait = RETRY_DELAYS_MS[claimed.attempts - 1] ?? RETRY_DELAYS_MS.at(-1)!;
        await repo.retryLater(claimed.id, new Date(clock.now().getTime() + wait), lastError);
        log.warn('delivery will be retried', {
          deliveryId: claimed.id,
          channel: claimed.channel,
          purpose: claimed.purpose,
          attempt: claimed.attempts,
          inMs: wait,
          err: lastError,
        });
      }
    }
  }

  /**
   * Claims a batch in one statement, then runs it `concurrency` at a time, oldest first. Safe side by
   * side: a batch holds at most one delivery per appointment and channel (`due` holds back the later
   * ones), and the rows of different appointments do not depend on each other. A slow mail server no
   * longer holds up everything behind it, and on SQLite the outcomes of deliveries in flight share
   * their commits. What a stop leaves unstarted is released, not left to its lease.
   */
  async function runBatch(rows: Delivery[]): Promise<number> {
    if (!rows.length) return 0;
    const order = new Map(rows.map((row, i) => [row.id, i]));
    const claimed = (await repo.claimAll(rows, clock.now(), LEASE_MS)).sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    let next = 0;
    const worker = async () => {
      while (next < claimed.length && !stopped()) await deliver(claimed[next++]!);
    };
    const outcomes = await Promise.allSettled(Array.from({ length: Math.min(concurrency, claimed.length) }, worker));
    await repo.release(claimed.slice(next).map((row) => row.id));
    const failed = outcomes.find((o) => o.status === 'rejected');
    if (failed) throw failed.reason;
    return next;
  }

  async function runOnce(): Promise<number> {
    let ran = 0;
    for (;;) {
      if (stopped()) return ran;
      const progressed = await runBatch(await repo.due(clock.now(), batchSize));
      ran += progressed;
      // Another pass while anything ran: a delivery just finished may have released the next one in line.
      if (progressed === 0) return ran;
    }
  }

  return {
    runDue() {
      if (running) {
        // Something was enqueued during a run: run once more afterwards rather than miss it.
        again = true;
        return running;
      }
      running = (async () => {
        let total = 0;
        try {
          do {
            again = false;
            total += await runOnce();
          } while (again && !stopped());
        } finally {
          running = null;
        }
        return total;
      })();
      return running;
    },
  };
}
