/**
 * The one guard in front of every /api/admin/* route, registered before the routes so that nothing
 * under the prefix, known route or not, is reachable without an admin token (deny by default).
 */
import type { MiddlewareHandler } from 'hono';
import { APPROVAL_PENDING } from '../../src/shared/schemas/admins.ts';
import { forbidden, HttpError, unauthorized } from '../http/errors.ts';
import type { AccessTokenVerifier, AdminPrincipal } from './verifier.ts';

export type AdminEnv = { Variables: { admin: AdminPrincipal; requestId: string } };

/** The refusal the admin SPA tells apart: signed in, asked to be an admin, not approved yet (docs/decisions/041). */
const approvalPending = () => new HttpError(403, 'Your request to be an admin is waiting for approval by an admin of the firm.', undefined, APPROVAL_PENDING);

export function adminGuard(verifier: AccessTokenVerifier): MiddlewareHandler<AdminEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw unauthorized('Authentication required');
    const principal = await verifier.verify(match[1]).catch(() => null);
    if (!principal) throw unauthorized('Invalid or expired token');
    if (!principal.isAdmin) throw principal.approvalPending ? approvalPending() : forbidden('Admin access required');
    c.set('admin', principal);
    await next();
  };
}
