/**
 * The Admins screen's calls (docs/decisions/030 and 041), behind the admin guard:
 * - GET /api/admin/admins: the admin group's members (the caller marked) and the ADMIN_EMAILS entries;
 * - DELETE /api/admin/admins/:username: out of the group and signed out;
 * - DELETE /api/admin/admins/:username/mfa: their TOTP reset, and signed out (never one's own).
 * - GET /api/admin/admin-requests; POST /api/admin/admin-requests/:username/approve and .../refuse;
 * - GET and POST /api/admin/admin-invitations, DELETE /api/admin/admin-invitations/:id (revoke).
 * And the invitation's holder, who has no account yet (public, rate-limited, the token in a header):
 * - GET /api/identity/invitation: the address, who invited, until when;
 * - POST /api/identity/invitation/accept: username and password; the account is a confirmed admin.
 */
import { bodyLimit } from 'hono/body-limit';
import { acceptInvitationInput, adminUsernameParam, INVITATION_TOKEN_HEADER, invitationIdParam, invitationInput } from '../../src/shared/schemas/admins.ts';
import type { Deps } from '../deps.ts';
import { errorBody } from '../http/errors.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody, pathParams } from '../http/validate.ts';
import { adminsService } from './admins.service.ts';

/** A username and a password: a few hundred bytes. A bigger body is refused before it is read. */
const ACCEPT_BODY_BYTES = 4 * 1024;

export function adminsRoutes(deps: Pick<Deps, 'adminDirectory' | 'log' | 'rateLimits' | 'clock'>) {
  const service = adminsService(deps);
  const limited = rateLimit(deps, 'invitation');
  return {
    admin: adminRouter()
      .get('/admins', async (c) => c.json(await service.list(c.get('admin'))))
      .delete('/admins/:username', pathParams(adminUsernameParam), async (c) => c.json(await service.remove(c.req.valid('param').username, c.get('admin'))))
      .delete('/admins/:username/mfa', pathParams(adminUsernameParam), async (c) =>
        c.json(await service.resetMfa(c.req.valid('param').username, c.get('admin'))),
      )
      .get('/admin-requests', async (c) => c.json(await service.requests()))
      .post('/admin-requests/:username/approve', pathParams(adminUsernameParam), async (c) =>
        c.json(await service.decide(c.req.valid('param').username, 'approve', c.get('admin'))),
      )
      .post('/admin-requests/:username/refuse', pathParams(adminUsernameParam), async (c) =>
        c.json(await service.decide(c.req.valid('param').username, 'refuse', c.get('admin'))),
      )
      .get('/admin-invitations', async (c) => c.json(await service.invitations()))
      .post('/admin-invitations', jsonBody(invitationInput), async (c) => c.json(await service.invite(c.req.valid('json').email, c.get('admin')), 201))
      .delete('/admin-invitations/:id', pathParams(invitationIdParam), async (c) =>
        c.json(await service.revokeInvitation(c.req.valid('param').id, c.get('admin'))),
      ),
    public: router()
      .get('/identity/invitation', limited, async (c) => c.json(await service.lookupInvitation(c.req.header(INVITATION_TOKEN_HEADER))))
      .post(
        '/identity/invitation/accept',
        limited,
        bodyLimit({ maxSize: ACCEPT_BODY_BYTES, onError: (c) => errorBody(c, 413, 'Request body is too large.') }),
        jsonBody(acceptInvitationInput),
        async (c) => c.json(await service.acceptInvitation(c.req.header(INVITATION_TOKEN_HEADER), c.req.valid('json')), 201),
      ),
  };
}
