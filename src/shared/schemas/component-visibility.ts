import { z } from 'zod';
import { requiredText } from './fields.ts';

const componentKey = z
  .string({ error: 'Component key is required' })
  .trim()
  .min(1, 'Component key is required')
  .max(60, 'Component key must be at most 60 characters')
  .regex(/^[a-z][a-z0-9_]*$/, 'Component key may contain only lowercase letters, digits and underscores');

/** PUT /api/admin/component-visibility/{componentKey}. */
export const componentVisibilityUpdate = z.object({ isVisible: z.boolean({ error: 'isVisible must be true or false' }) });

/** POST /api/admin/component-visibility. */
export const componentVisibilityInput = z.object({
  componentKey,
  componentName: requiredText('Component name', 100),
  description: z.string().trim().max(500, 'Description must be at most 500 characters').default(''),
  isVisible: z.boolean().default(true),
});

export const componentKeyParam = z.object({ componentKey });
