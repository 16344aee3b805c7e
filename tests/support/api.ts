/**
 * The typed client of the API (src/lib/api-client.ts's `apiClient`) over an in-process app:
 * tests call routes by name with the routes' own request and answer types, so a field the server
 * renames fails `npm run typecheck` in the tests as it does in the islands and the admin SPA.
 *
 *   const admin = testApi(ctx().app, { token: ADMIN_TOKEN });
 *   const res = await admin.admin.testimonials.$post({ json: { ... } });
 *   expect(res.status).toBe(201);
 *   const row = await res.json(); // the route's type
 *
 * Unlike the browser's client, a non-OK answer is returned, not thrown: tests assert statuses.
 */
import type { App } from '../../api/app.ts';
import { apiClient } from '../../src/lib/api-client.ts';

/** A typed client of `app`, without a socket; `token` is sent as the Bearer on every call. */
export function testApi(app: Pick<App, 'request'>, { token }: { token?: string } = {}) {
  return apiClient('http://test', async (input, init) => {
    const headers = new Headers(init?.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    return app.request(input, { ...init, headers });
  });
}

/** The body of an error answer (STYLE §5 `{ error, fields }`), which no route's success type describes. */
export async function errorOf(res: { json(): Promise<unknown> }): Promise<{ error: string; fields: Record<string, string> }> {
  return (await res.json()) as { error: string; fields: Record<string, string> };
}

/** A request body outside the route's contract (a hostile or broken client), sent as it is. */
export const unchecked = <T>(body: unknown) => body as T;
