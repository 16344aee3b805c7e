/** The Admins screen's one input: the username in DELETE /api/admin/admins/:username. */
import { z } from 'zod';

/** A user-pool username as Cognito allows it: 1-128 letters, marks, symbols, digits or punctuation, no spaces. */
export const adminUsername = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u);

export const adminUsernameParam = z.object({ username: adminUsername });
