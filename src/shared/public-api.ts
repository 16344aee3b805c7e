/**
 * Shapes of the public GET calls of SPEC §7, as their routes answer them (dates as ISO strings):
 * derived from the API's route types, so a field the server renames fails `npm run typecheck` in the
 * pages, islands and tests that read it. Type-only: nothing of the client or the server is loaded.
 */
import type { ApiData, api } from '../lib/api-client.ts';

export type PublicTestimonial = ApiData<typeof api.testimonials.$get>[number];
export type PublicExternalReview = ApiData<(typeof api)['external-reviews']['$get']>[number];
export type PublicBlogPostSummary = ApiData<(typeof api)['blog-posts']['$get']>[number];
export type PublicBlogPost = ApiData<(typeof api)['blog-posts'][':slug']['$get']>;
export type PublicExternalArticle = ApiData<(typeof api)['external-blog-articles']['$get']>[number];
export type ComponentVisibility = ApiData<(typeof api)['component-visibility']['$get']>[number];
