/** zod validation for routes, answering 400 with one message per field (STYLE §5). */
import { zValidator } from '@hono/zod-validator';
import type { ZodType } from 'zod';
import { badRequest, notFound, validationError } from './errors.ts';

/**
 * Hostile input: text neither database can keep as sent. PostgreSQL refuses a NUL in text
 * (a 500 before this check), and an unpaired UTF-16 surrogate (JSON's "\ud800") is stored by both
 * dialects as U+FFFD, so the record would silently differ from what was sent. Refused up front, for
 * every route, with the field named.
 */
export const UNSTORABLE_TEXT = 'Text may not contain NUL characters or unpaired Unicode surrogates';

export const isStorableText = (text: string) => !text.includes('\u0000') && text.isWellFormed();

/** JSON a request body may hold: no payload of this API is nested deeper than a few levels. */
export const MAX_BODY_DEPTH = 32;

export type TextProblem = { kind: 'text'; path: (string | number)[] } | { kind: 'depth' };

/**
 * The first key or string value of a parsed JSON body that cannot be stored, or a nesting deeper than
 * MAX_BODY_DEPTH. Iterative: a "JSON bomb" of 10,000 nested arrays must not exhaust the stack.
 */
export function textProblem(value: unknown): TextProblem | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (!isStorableText(v)) return { kind: 'text', path };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (path.length >= MAX_BODY_DEPTH) return { kind: 'depth' };
    if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ value: item, path: [...path, i] }));
      continue;
    }
    for (const [key, item] of Object.entries(v)) {
      if (!isStorableText(key)) return { kind: 'text', path: [...path, key] };
      stack.push({ value: item, path: [...path, key] });
    }
  }
  return null;
}

const fieldName = (path: (string | number)[]) => (path.length ? path.map(String).join('.') : '_');

/** What the request carried that no schema should see: 400 naming the field (or the nesting). */
function refuseUnstorable(problem: TextProblem): never {
  if (problem.kind === 'depth') throw badRequest('Malformed request body: nested too deeply.');
  throw badRequest('Please check the highlighted fields.', { [fieldName(problem.path)]: UNSTORABLE_TEXT });
}

/** The schema's own parse, after the storable-text check (onProblem decides the answer). */
const checkedFirst = <T extends ZodType>(onProblem: (problem: TextProblem) => never) => ({
  validationFunction: async (schema: T, value: unknown) => {
    const problem = textProblem(value);
    if (problem) onProblem(problem);
    // The validator's own result type, which it spells conditionally on the schema's zod version.
    return (await schema.safeParseAsync(value)) as never;
  },
});

export const jsonBody = <T extends ZodType>(schema: T) =>
  zValidator(
    'json',
    schema,
    (result) => {
      if (!result.success) throw validationError(result.error);
    },
    checkedFirst<T>(refuseUnstorable),
  );

/** A path parameter that fails its schema cannot name a record: 404, like any unknown id. */
export const pathParams = <T extends ZodType>(schema: T) =>
  zValidator(
    'param',
    schema,
    (result) => {
      if (!result.success) throw notFound();
    },
    checkedFirst<T>(() => {
      throw notFound();
    }),
  );

/** Query strings (GET filters): 400 with one message per parameter, like a body. */
export const queryParams = <T extends ZodType>(schema: T) =>
  zValidator(
    'query',
    schema,
    (result) => {
      if (!result.success) throw validationError(result.error);
    },
    checkedFirst<T>(refuseUnstorable),
  );
