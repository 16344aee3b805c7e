/**
 * Server-only: what on-demand (republished) pages read while they render. They read the public API
 * of the server that renders them, so page code never imports api/ or db/ (ARCHITECTURE) and a page
 * shows exactly what the API would give a visitor. Rendering happens at publish time, not per
 * request (see docs/decisions/007-republishing.md), so this costs nothing on a visitor's request.
 */
import type { PublicBlogPost, PublicBlogPostSummary, PublicExternalArticle, PublicTestimonial } from '../shared/public-api.ts';

export async function fetchApi<T>(pageUrl: URL, path: string): Promise<T | null> {
  const res = await fetch(new URL(path, pageUrl.origin), { headers: { accept: 'application/json' } });
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
  return (await res.json()) as T;
}

export const getPosts = (url: URL) => fetchApi<PublicBlogPostSummary[]>(url, '/api/blog-posts');
export const getPost = (url: URL, slug: string) => fetchApi<PublicBlogPost>(url, `/api/blog-posts/${encodeURIComponent(slug)}`);
export const getTestimonials = (url: URL) => fetchApi<PublicTestimonial[]>(url, '/api/testimonials');
export const getExternalArticles = (url: URL) => fetchApi<PublicExternalArticle[]>(url, '/api/external-blog-articles');
