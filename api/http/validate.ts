/** zod validation for routes, answering 400 with one message per field (STYLE §5). */
import { zValidator } from '@hono/zod-validator';
import type { ZodType } from 'zod';
import { notFound, validationError } from './errors.ts';

export const jsonBody = <T extends ZodType>(schema: T) =>
  zValidator('json', schema, (result) => {
    if (!result.success) throw validationError(result.error);
  });

/** A path parameter that fails its schema cannot name a record: 404, like any unknown id. */
export const pathParams = <T extends ZodType>(schema: T) =>
  zValidator('param', schema, (result) => {
    if (!result.success) throw notFound();
  });

/** Query strings (GET filters): 400 with one message per parameter, like a body. */
export const queryParams = <T extends ZodType>(schema: T) =>
  zValidator('query', schema, (result) => {
    if (!result.success) throw validationError(result.error);
  });
