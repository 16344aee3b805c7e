/**
 * Server-only: what on-demand (republished) pages read while they render. They read the public API
 * of the server that renders them, so page code never imports api/ or db/ (ARCHITECTURE) and a page
 * shows exactly what the API would give a visitor. Rendering happens at publish time, not per
 * request (see docs/decisions/007-republishing.md), so this costs nothing on a visitor's request.
 */
import type { ClientResponse } from 'hono/client';
import { apiClient } from '../lib/api-client.ts';

/** The public API of the server rendering `pageUrl`, through the typed client (a plain fetch: answers are not thrown). */
const apiOf = (pageUrl: URL) => apiClient(pageUrl.origin, fetch);
const asJson = { headers: { accept: 'application/json' } };

/** The success body of a call; null for a 404 (no such post); any other failure throws. */
export async function fetchApi<T>(call: Promise<ClientResponse<T, number, 'json'>>): Promise<T | null> {
  const res = await call;
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`GET ${res.url} answered ${res.status}`);
  return (await res.json()) as T;
}

/**
 * Part of the published list, newest first, as a page shows it: `limit` posts from `offset`, and how
 * many are published in all (the API's X-Total-Count). A page reads what it shows, not every post.
 */
export async function getPostsPage(url: URL, limit: number, offset = 0) {
  const res = await apiOf(url)['blog-posts'].$get({ query: { limit: String(limit), offset: String(offset) } }, asJson);
  if (!res.ok) throw new Error(`GET ${res.url} answered ${res.status}`);
  return { posts: await res.json(), total: Number(res.headers.get('x-total-count') ?? 0) };
}

/** Every published post's slug and dates (the sitemap's lastmod), the only fields it reads. */
export const getPostDates = (url: URL) =>
  fetchApi(apiOf(url)['blog-posts'].$get({ query: { fields: 'slug,publishedAt,updatedAt' } }, asJson)) as Promise<
    { slug: string; publishedAt: string | null; updatedAt: string | null }[] | null
  >;
export const getPost = (url: URL, slug: string) => fetchApi(apiOf(url)['blog-posts'][':slug'].$get({ param: { slug: encodeURIComponent(slug) } }, asJson));
export const getTestimonials = (url: URL) => fetchApi(apiOf(url).testimonials.$get(undefined, asJson));
export const getExternalReviews = (url: URL) => fetchApi(apiOf(url)['external-reviews'].$get(undefined, asJson));
export const getExternalArticles = (url: URL) => fetchApi(apiOf(url)['external-blog-articles'].$get(undefined, asJson));
/** The components an admin hid (SPEC §3 catalogue). */
export async function getHiddenComponents(url: URL): Promise<Set<string>> {
  const rows = (await fetchApi(apiOf(url)['component-visibility'].$get(undefined, asJson))) ?? [];
  return new Set(rows.filter((r) => !r.isVisible).map((r) => r.componentKey));
}
