/**
 * The Admins screen's inputs (docs/decisions/030 and 041): the username in its paths, an invitation's
 * address and id, and what the holder of an invitation sends to accept it; the names both sides read.
 */
import { z } from 'zod';
import { email } from './fields.ts';

/** A user-pool username as Cognito allows it: 1-128 letters, marks, symbols, digits or punctuation, no spaces. */
export const adminUsername = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u);

export const adminUsernameParam = z.object({ username: adminUsername });

/** The admin API's 403 `code` for a signed-in user who asked to be an admin and waits for approval. */
export const APPROVAL_PENDING = 'approval-pending';

/** POST /api/admin/admin-invitations: whom to invite. */
export const invitationInput = z.object({ email });

export const invitationIdParam = z.object({ id: z.uuid() });

/** The invitation's token travels in this header, never in a URL (it sits in the page's fragment). */
export const INVITATION_TOKEN_HEADER = 'x-invitation-token';

/**
 * POST /api/identity/invitation/accept: the username and password the holder chooses. The form says
 * SPEC §5's sign-up messages; these are the server's bounds (its password policy is checked after).
 */
export const acceptInvitationInput = z.object({
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .min(3, 'Username must be at least 3 characters')
    .max(128, 'Username must be at most 128 characters')
    .regex(/^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u, 'Username must not contain spaces'),
  password: z.string({ error: 'Password is required' }).min(8, 'Password must be at least 8 characters').max(1024, 'Password is too long'),
});
