/**
 * The one guard in front of every /api/admin/* route, registered before the routes so that nothing
 * under the prefix, known route or not, is reachable without an admin token (deny by default).
 */
import type { MiddlewareHandler } from 'hono';
import { forbidden, unauthorized } from '../http/errors.ts';
import type { AccessTokenVerifier, AdminPrincipal } from './verifier.ts';

export type AdminEnv = { Variables: { admin: AdminPrincipal; requestId: string } };

export function adminGuard(verifier: AccessTokenVerifier): MiddlewareHandler<AdminEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw unauthorized('Authentication required');
    const principal = await verifier.verify(match[1]).catch(() => null);
    if (!principal) throw unauthorized('Invalid or expired token');
    if (!principal.isAdmin) throw forbidden('Admin access required');
    c.set('admin', principal);
    await next();
  };
}
