/**
 * The DynamoDB side of the migration: the client (AWS, or a custom endpoint such as dynalite), the
 * batch writes and reads with their retries, and errors in words an admin or operator can act on.
 *
 * Retries (docs/decisions/011): the SDK retries a failed call itself (network errors, throttling) up
 * to `sdkMaxAttempts`; above it, a batch is tried up to `maxAttempts` times in all, unprocessed items
 * and retryable errors alike, waiting with exponential backoff and full jitter in between. Then the
 * run fails with a clear error, and the next Start Migration resumes it from its checkpoints.
 */
import { DescribeTableCommand, DynamoDBClient, type DescribeTableCommandOutput } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { MigrationSettings } from '../deps.ts';
import type { Item } from './items.ts';
import type { MigrationTuning } from './migration-tuning.ts';
import { DEFAULT_TABLE_NAME } from './table-design.ts';

/** DynamoDB's limits per call. */
export const BATCH_WRITE_MAX = 25;
export const BATCH_GET_MAX = 100;

export interface DynamoTarget {
  client: DynamoDBClient;
  doc: DynamoDBDocumentClient;
  tableName: string;
  /** "http://127.0.0.1:8000" or "AWS us-west-2": for messages (no credentials). */
  where: string;
  close(): void;
}

/** Any region signs requests to a custom endpoint; AWS itself needs the configured one. */
const LOCAL_REGION = 'us-east-1';

export function dynamoTarget(settings: MigrationSettings, tuning: MigrationTuning): DynamoTarget {
  const endpoint = settings.endpoint;
  // dynalite and DynamoDB Local accept any keys; the SDK still wants some to sign with.
  const credentials = settings.credentials ?? (endpoint ? { accessKeyId: 'local', secretAccessKey: 'local' } : undefined);
  const client = new DynamoDBClient({
    region: settings.awsRegion ?? LOCAL_REGION,
    ...(endpoint ? { endpoint } : {}),
    ...(credentials ? { credentials } : {}),
    maxAttempts: tuning.sdkMaxAttempts,
    requestHandler: { requestTimeout: tuning.requestTimeoutMs, connectionTimeout: 5_000 },
  });
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
    // Numbers come back as their decimal text (NumberValue), never as a float.
    unmarshallOptions: { wrapNumbers: true },
  });
  return {
    client,
    doc,
    tableName: settings.tableName ?? DEFAULT_TABLE_NAME,
    where: endpoint ?? `AWS ${settings.awsRegion ?? LOCAL_REGION}`,
    close: () => client.destroy(),
  };
}

/** A failure with the message to show; `retryable` when trying again later may succeed. */
export class DynamoError extends Error {
  readonly kind: 'unreachable' | 'credentials' | 'missing-table' | 'refused' | 'exhausted' | 'aborted';
  constructor(kind: DynamoError['kind'], message: string) {
    super(message);
    this.kind = kind;
  }
}

type AwsError = Error & { name: string; code?: string; $retryable?: unknown; $metadata?: { httpStatusCode?: number } };

const THROTTLING = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'LimitExceededException',
]);
const CREDENTIALS = new Set([
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'AccessDeniedException',
  'ExpiredTokenException',
  'MissingAuthenticationTokenException',
  'CredentialsProviderError',
  'IncompleteSignatureException',
]);

/** Network errors (no answer at all), throttling and 5xx may pass on a later try. */
export function isRetryable(err: unknown): boolean {
  const e = err as AwsError;
  if (e instanceof DynamoError) return e.kind === 'unreachable' || e.kind === 'exhausted';
  if (THROTTLING.has(e?.name) || e?.$retryable) return true;
  const status = e?.$metadata?.httpStatusCode;
  if (status !== undefined) return status >= 500;
  return !CREDENTIALS.has(e?.name);
}

/** The error, in words that say what to do; never a credential. */
export function describeDynamoError(err: unknown, target: Pick<DynamoTarget, 'where' | 'tableName'>): DynamoError {
  if (err instanceof DynamoError) return err;
  const e = err as AwsError;
  const detail = (e?.code ?? e?.name ?? 'error') + (e?.message ? `: ${e.message}` : '');
  if (e?.name === 'ResourceNotFoundException') {
    return new DynamoError(
      'missing-table',
      `The DynamoDB table "${target.tableName}" does not exist at ${target.where}: create it first (Generate Table Commands, or \`npm run migrate:dynamodb -- create-table\`).`,
    );
  }
  if (CREDENTIALS.has(e?.name)) {
    return new DynamoError(
      'credentials',
      `DynamoDB at ${target.where} refused the credentials (${detail}). Check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or the role's permissions) and AWS_REGION.`,
    );
  }
  if (e?.$metadata?.httpStatusCode === undefined) {
    return new DynamoError(
      'unreachable',
      `DynamoDB did not answer at ${target.where} (${detail}). Check DYNAMODB_ENDPOINT or AWS_REGION and the network, then try again.`,
    );
  }
  if (THROTTLING.has(e.name) || (e.$metadata.httpStatusCode ?? 0) >= 500) {
    return new DynamoError('unreachable', `DynamoDB at ${target.where} is busy or failing (${detail}); try again in a moment.`);
  }
  return new DynamoError('refused', `DynamoDB at ${target.where} refused the request (${detail}).`);
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

const abortedError = () => new DynamoError('aborted', 'The migration was stopped.');

/** Full jitter: a wait drawn from [0, min(max, base * 2^attempt)). */
export const backoffMs = (attempt: number, tuning: Pick<MigrationTuning, 'baseDelayMs' | 'maxDelayMs'>) =>
  Math.random() * Math.min(tuning.maxDelayMs, tuning.baseDelayMs * 2 ** attempt);

export interface BatchStats {
  /** BatchWriteItem / BatchGetItem calls made, retries included. */
  calls: number;
  /** Calls that left items unprocessed. */
  unprocessedCalls: number;
}

/**
 * Puts up to 25 items, retrying what DynamoDB leaves unprocessed and what fails in a retryable way,
 * until every item is written or `maxAttempts` tries were made. `signal` cuts off the call in flight;
 * `halt` lets it finish but makes no further attempt (a graceful stop: what the call wrote counts).
 */
export async function writeBatch(
  target: DynamoTarget,
  items: Item[],
  tuning: MigrationTuning,
  options: { signal?: AbortSignal; halt?: AbortSignal; stats?: BatchStats; describe?: string } = {},
): Promise<void> {
  let pending = items.map((Item) => ({ PutRequest: { Item } }));
  const waits = options.halt && options.signal ? AbortSignal.any([options.signal, options.halt]) : (options.halt ?? options.signal);
  for (let attempt = 1; ; attempt++) {
    if (options.signal?.aborted || options.halt?.aborted) throw abortedError();
    let failure: unknown = null;
    try {
      if (options.stats) options.stats.calls++;
      const out = await target.doc.send(new BatchWriteCommand({ RequestItems: { [target.tableName]: pending } }), { abortSignal: options.signal });
      pending = (out.UnprocessedItems?.[target.tableName] ?? []) as typeof pending;
      if (pending.length === 0) return;
      if (options.stats) options.stats.unprocessedCalls++;
    } catch (err) {
      if (options.signal?.aborted) throw abortedError();
      if (!isRetryable(err)) throw describeDynamoError(err, target);
      failure = err;
    }
    if (attempt >= tuning.maxAttempts) {
      if (failure) throw describeDynamoError(failure, target);
      throw new DynamoError(
        'exhausted',
        `DynamoDB at ${target.where} left ${pending.length} item(s)${options.describe ? ` of ${options.describe}` : ''} unprocessed after ${attempt} attempts (capacity exceeded). Start the migration again: it resumes from its checkpoints.`,
      );
    }
    await sleep(backoffMs(attempt, tuning), waits);
  }
}

/** Gets up to 100 items by key (consistent reads), retrying unprocessed keys the same way. */
export async function getBatch(
  target: DynamoTarget,
  keys: Record<string, string>[],
  tuning: MigrationTuning,
  options: { signal?: AbortSignal } = {},
): Promise<Item[]> {
  const found: Item[] = [];
  let pending = keys;
  for (let attempt = 1; ; attempt++) {
    if (options.signal?.aborted) throw abortedError();
    let failure: unknown = null;
    try {
      const out = await target.doc.send(new BatchGetCommand({ RequestItems: { [target.tableName]: { Keys: pending, ConsistentRead: true } } }), {
        abortSignal: options.signal,
      });
      found.push(...((out.Responses?.[target.tableName] ?? []) as Item[]));
      pending = (out.UnprocessedKeys?.[target.tableName]?.Keys ?? []) as Record<string, string>[];
      if (pending.length === 0) return found;
    } catch (err) {
      if (!isRetryable(err)) throw describeDynamoError(err, target);
      failure = err;
    }
    if (attempt >= tuning.maxAttempts) {
      if (failure) throw describeDynamoError(failure, target);
      throw new DynamoError(
        'exhausted',
        `DynamoDB at ${target.where} left ${pending.length} key(s) unread after ${attempt} attempts (capacity exceeded); verify again in a moment.`,
      );
    }
    await sleep(backoffMs(attempt, tuning), options.signal);
  }
}

/** The table's description, or null when it does not exist. */
export async function describeTable(target: DynamoTarget): Promise<DescribeTableCommandOutput['Table'] | null> {
  try {
    return (await target.client.send(new DescribeTableCommand({ TableName: target.tableName }))).Table ?? null;
  } catch (err) {
    if ((err as AwsError)?.name === 'ResourceNotFoundException') return null;
    throw describeDynamoError(err, target);
  }
}
