import { Hono } from 'hono';
import type { AdminEnv } from '../auth/admin-guard.ts';

/** What a feature contributes: routes under /api and routes under /api/admin (behind the guard). */
export interface FeatureRoutes {
  public?: Hono;
  admin?: Hono<AdminEnv>;
  /** Ends work the feature runs beyond a request (a migration run); the server calls it on shutdown. */
  stop?(): Promise<void>;
}

export const router = () => new Hono();
export const adminRouter = () => new Hono<AdminEnv>();
