/**
 * The Admins screen's calls (docs/decisions/030), behind the admin guard:
 * - GET /api/admin/admins: the admin group's members (the caller marked) and the ADMIN_EMAILS entries;
 * - DELETE /api/admin/admins/:username: out of the group and signed out;
 * - DELETE /api/admin/admins/:username/mfa: their TOTP reset, and signed out (never one's own).
 */
import { adminUsernameParam } from '../../src/shared/schemas/admins.ts';
import type { Deps } from '../deps.ts';
import { adminRouter } from '../http/routes.ts';
import { pathParams } from '../http/validate.ts';
import { adminsService } from './admins.service.ts';

export function adminsRoutes(deps: Pick<Deps, 'adminDirectory'>) {
  const service = adminsService(deps);
  return {
    admin: adminRouter()
      .get('/admins', async (c) => c.json(await service.list(c.get('admin'))))
      .delete('/admins/:username', pathParams(adminUsernameParam), async (c) => c.json(await service.remove(c.req.valid('param').username, c.get('admin'))))
      .delete('/admins/:username/mfa', pathParams(adminUsernameParam), async (c) =>
        c.json(await service.resetMfa(c.req.valid('param').username, c.get('admin'))),
      ),
  };
}
