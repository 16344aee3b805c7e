import { Hono } from 'hono';
import type { AdminEnv } from '../auth/admin-guard.ts';

/**
 * What a feature contributes: routes under /api and routes under /api/admin (behind the guard).
 * Features return their routers as built (chained), so each keeps its routes' types: api/app.ts
 * merges them into `ApiRoutes`, the type the typed client (src/lib/api.ts) is made from.
 */
export interface FeatureRoutes {
  // biome-ignore lint/suspicious/noExplicitAny: any route schema; each feature's own is kept by inference.
  public?: Hono<any, any, any>;
  // biome-ignore lint/suspicious/noExplicitAny: as above, behind the admin guard.
  admin?: Hono<AdminEnv, any, any>;
  /** Ends work the feature runs beyond a request (a migration run); the server calls it on shutdown. */
  stop?(): Promise<void>;
}

export const router = () => new Hono();
export const adminRouter = () => new Hono<AdminEnv>();
