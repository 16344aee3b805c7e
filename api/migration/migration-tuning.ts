/**
 * The knobs of the migration (docs/decisions/011). Defaults suit AWS and a large data set; tests turn
 * the waits down so a lost connection fails a run in milliseconds, and the operator command can raise
 * the concurrency (`--concurrency`).
 */
export interface MigrationTuning {
  /** BatchWriteItem calls in flight at once (each up to 25 items, DynamoDB's limit). */
  concurrency: number;
  /** Rows read from the relational database per keyset page. */
  pageSize: number;
  /** Tries per batch (first call included) before the run fails: unprocessed items and retryable errors count. */
  maxAttempts: number;
  /** Exponential backoff with full jitter: a wait drawn from [0, min(maxDelayMs, baseDelayMs * 2^n)). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How often progress, checkpoints and the lease are written while a run goes on. */
  checkpointMs: number;
  /** A running run whose lease is older than this was interrupted (its process stopped). */
  leaseMs: number;
  /** The SDK's own attempts per call (network errors, throttling), under ours. */
  sdkMaxAttempts: number;
  /** Per-call timeout, so a peer that stops answering fails the call instead of hanging the run. */
  requestTimeoutMs: number;
  /**
   * On a stop (the server's shutdown), how long the batches in flight may take to finish before they
   * are cut off: well inside the server's 10 s drain deadline (api/server.ts), which must still
   * record the run interrupted and close the database.
   */
  stopGraceMs: number;
}

export const defaultTuning: MigrationTuning = {
  concurrency: 8,
  pageSize: 500,
  maxAttempts: 10,
  baseDelayMs: 50,
  maxDelayMs: 5_000,
  checkpointMs: 500,
  leaseMs: 30_000,
  sdkMaxAttempts: 3,
  requestTimeoutMs: 30_000,
  stopGraceMs: 5_000,
};

export const tuningWith = (overrides: Partial<MigrationTuning> = {}): MigrationTuning => ({ ...defaultTuning, ...overrides });
