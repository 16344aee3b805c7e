/**
 * The one place errors become HTTP (STYLE §5). Every error body has the shape
 * `{ error, fields?, code?, requestId }`: services throw these classes, the app's onError renders them.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ZodError } from 'zod';
import { databaseRefusal, databaseUnavailable } from '../../db/driver-errors.ts';
import type { Logger } from '../logger.ts';

export class HttpError extends Error {
  readonly status: ContentfulStatusCode;
  readonly fields: Record<string, string> | undefined;
  /** A stable name for a refusal a client acts on, beside the sentence it shows ('approval-pending'). */
  readonly code: string | undefined;
  constructor(status: ContentfulStatusCode, message: string, fields?: Record<string, string>, code?: string) {
    super(message);
    this.status = status;
    this.fields = fields;
    this.code = code;
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) => new HttpError(400, message, fields);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message);
export const forbidden = (message = 'Admin access required') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string, fields?: Record<string, string>) => new HttpError(409, message, fields);

/** Zod issues to one message per field ("email" -> "Please enter a valid email address"). */
type Issues = { issues: readonly { path: readonly PropertyKey[]; message: string }[] };

export function fieldErrors(error: Issues): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

export function validationError(error: Issues): HttpError {
  return badRequest('Please check the highlighted fields.', fieldErrors(error));
}

/** What the database refused (db/driver-errors.ts), as the answer to the request; null for any other error. */
function constraintError(err: unknown): HttpError | null {
  switch (databaseRefusal(err)?.kind) {
    case 'unique':
      return conflict('A record with the same unique value already exists.');
    case 'foreign-key':
      return conflict('A related record does not exist.');
    case 'invalid-value':
      return badRequest('A value is outside the allowed range.');
    case 'unstorable-text':
      return badRequest('Text contains characters that cannot be stored.');
    default:
      return null;
  }
}

export function errorBody(c: Context, status: number, message: string, fields?: Record<string, string>, code?: string) {
  return c.json(
    { error: message, ...(fields ? { fields } : {}), ...(code ? { code } : {}), requestId: c.get('requestId') as string },
    status as ContentfulStatusCode,
  );
}

export function handleError(log: Logger) {
  return (err: Error, c: Context) => {
    if (err instanceof HttpError) return errorBody(c, err.status, err.message, err.fields, err.code);
    if (err instanceof ZodError) {
      const v = validationError(err);
      return errorBody(c, 400, v.message, v.fields);
    }
    if (err instanceof HTTPException) {
      // Hono's own: malformed JSON (400), body limit (413) and the like.
      const status = err.status;
      const message = status === 413 ? 'Request body is too large (64 KB at most).' : status === 400 ? 'Malformed request body: send valid JSON.' : err.message;
      return errorBody(c, status, message);
    }
    const mapped = constraintError(err);
    if (mapped) return errorBody(c, mapped.status, mapped.message, mapped.fields);
    const unavailable = databaseUnavailable(err);
    if (unavailable) {
      // A moment's outage, not a bug: 503 with Retry-After says "send it again" to the client and the
      // CDN (writes carry Idempotency-Keys, so a second try never stores twice).
      log.warn('database unavailable', { requestId: c.get('requestId'), method: c.req.method, path: c.req.path, cause: unavailable, err: err.message });
      c.header('Retry-After', '2');
      return errorBody(c, 503, 'The site cannot save or load this right now. Please try again in a few seconds, or call the office.');
    }
    log.error('unhandled error', { requestId: c.get('requestId'), method: c.req.method, path: c.req.path, err: err?.stack ?? String(err) });
    return errorBody(c, 500, 'Something went wrong on our side. Please try again, or call the office.');
  };
}
