/**
 * The API: createApp(deps) returns a Hono app serving every call of SPEC §7 under /api. Tests call it
 * in-process (app.request), api/server.ts serves it beside the site, or alone (--api-only), and calls
 * its stop() on shutdown: work the features run beyond a request (a migration run) ends with it.
 */
import { Hono } from 'hono';
import type { MergeSchemaPath } from 'hono/types';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import { adminsRoutes } from './admins/admins.routes.ts';
import { appointmentsRoutes } from './appointments/appointments.routes.ts';
import { adminGuard } from './auth/admin-guard.ts';
import { blogPostsRoutes } from './blog-posts/blog-posts.routes.ts';
import { bookingRulesRoutes } from './booking-rules/booking-rules.routes.ts';
import { blogSourcesRoutes } from './blog-sources/blog-sources.routes.ts';
import { calendarConnectRoutes } from './calendar-connect/calendar-connect.routes.ts';
import { calendarSettingsRoutes } from './calendar-settings/calendar-settings.routes.ts';
import { calendarSyncRoutes } from './calendar-sync/calendar-sync.routes.ts';
import { componentVisibilityRoutes } from './component-visibility/component-visibility.routes.ts';
import { contactSubmissionsRoutes } from './contact-submissions/contact-submissions.routes.ts';
import { cdnRoutes } from './cdn/cdn.routes.ts';
import { deliveriesRoutes } from './deliveries/deliveries.routes.ts';
import type { Deps } from './deps.ts';
import { emailSettingsRoutes } from './email-settings/email-settings.routes.ts';
import { externalReviewsRoutes } from './external-reviews/external-reviews.routes.ts';
import { healthRoutes } from './health/health.routes.ts';
import { identityRoutes } from './identity/identity.routes.ts';
import { errorBody, handleError } from './http/errors.ts';
import { apiSecurityHeaders, securitySettings, setHeaders } from './http/security-headers.ts';
import type { FeatureRoutes } from './http/routes.ts';
import { migrationRoutes } from './migration/migration.routes.ts';
import { publishingRoutes } from './publishing/publishing.routes.ts';
import { probateCalculationsRoutes } from './probate-calculations/probate-calculations.routes.ts';
import { testimonialsRoutes } from './testimonials/testimonials.routes.ts';
import { themesRoutes } from './themes/themes.routes.ts';

export const MAX_BODY_BYTES = 64 * 1024;
const NO_STORE = { 'Cache-Control': 'no-store' } as const;

const features = [
  healthRoutes,
  identityRoutes,
  testimonialsRoutes,
  externalReviewsRoutes,
  blogPostsRoutes,
  contactSubmissionsRoutes,
  probateCalculationsRoutes,
  appointmentsRoutes,
  bookingRulesRoutes,
  themesRoutes,
  componentVisibilityRoutes,
  calendarSettingsRoutes,
  calendarSyncRoutes,
  calendarConnectRoutes,
  emailSettingsRoutes,
  blogSourcesRoutes,
  deliveriesRoutes,
  cdnRoutes,
  adminsRoutes,
  migrationRoutes,
  publishingRoutes,
] as const satisfies readonly ((deps: Deps) => FeatureRoutes)[];

type Feature = ReturnType<(typeof features)[number]>;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type PublicSchema<F> = F extends { public: Hono<infer _E, infer S, infer _B> } ? MergeSchemaPath<S, '/api'> : never;
type AdminSchema<F> = F extends { admin: Hono<infer _E, infer S, infer _B> } ? MergeSchemaPath<S, '/api/admin'> : never;

/**
 * Every route of the API with its input and output types, merged from the features above: the typed
 * client (src/lib/api.ts) is built from it, so a renamed field fails `npm run typecheck` where it is read.
 */
export type ApiRoutes = Hono<ApiEnv, UnionToIntersection<PublicSchema<Feature> | AdminSchema<Feature>>, '/'>;

export type ApiEnv = { Variables: { requestId: string } };

export function createApp(deps: Deps) {
  const app = new Hono<ApiEnv>();
  app.use('*', requestId());
  // Nosniff, CSP, frame and referrer rules on every answer, errors included (decision 012).
  app.use('*', apiSecurityHeaders(securitySettings(deps)));
  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    // Path only: query strings may carry personal data.
    deps.log.info('request', {
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
  });
  // Nothing from the API is kept by a shared cache unless its route says so (api/http/public-cache.ts).
  app.use('/api/*', async (c, next) => {
    await next();
    if (!c.res.headers.get('cache-control')?.includes('public')) setHeaders(c, NO_STORE);
  });
  // Refused unread: the rest of the body would still be on the connection, and whoever reused it next
  // (a CDN pools its backend connections) would read garbage. The connection closes with the answer.
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => {
        c.header('Connection', 'close');
        return errorBody(c, 413, 'Request body is too large (64 KB at most).');
      },
    }),
  );
  // Deny by default: registered before any admin route, so unknown admin paths are guarded too.
  app.use('/api/admin/*', adminGuard(deps.verifier));
  app.use('/api/admin', adminGuard(deps.verifier));

  const stops: (() => Promise<void>)[] = [];
  for (const feature of features.map((f): FeatureRoutes => f(deps))) {
    if (feature.public) app.route('/api', feature.public);
    if (feature.admin) app.route('/api/admin', feature.admin);
    if (feature.stop) stops.push(feature.stop);
  }

  app.notFound((c) => errorBody(c, 404, 'Not found'));
  app.onError(handleError(deps.log));
  return Object.assign(app, {
    /** Stops the features' work beyond requests (api/server.ts, on shutdown), before the database closes. */
    async stop(): Promise<void> {
      await Promise.all(stops.map((stop) => stop()));
    },
  });
}

export type App = ReturnType<typeof createApp>;
