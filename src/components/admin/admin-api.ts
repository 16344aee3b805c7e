/**
 * How admin screens talk to the API: query keys (SPEC §7: the key's parts joined with slashes are the
 * path the default query fetches), list hooks, and one mutation hook that shows the SPEC §8 toasts
 * and refreshes every list a change can affect. The server republishes the public pages itself.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { api, read } from '../../lib/api-client.ts';
import { toast } from '../../lib/toast.ts';

/**
 * The admin lists: each query's key is its path (SPEC §7), and its data is fetched through the typed
 * client, so a screen's rows have the type the route answers.
 */
export const adminQueries = {
  contactSubmissions: queryOptions({ queryKey: ['/api/admin/contact-submissions'], queryFn: () => read(api.admin['contact-submissions'].$get()) }),
  blogPosts: queryOptions({ queryKey: ['/api/admin/blog-posts'], queryFn: () => read(api.admin['blog-posts'].$get()) }),
  testimonials: queryOptions({ queryKey: ['/api/admin/testimonials'], queryFn: () => read(api.admin.testimonials.$get()) }),
  externalReviews: queryOptions({ queryKey: ['/api/admin/external-reviews'], queryFn: () => read(api.admin['external-reviews'].$get()) }),
  themes: queryOptions({ queryKey: ['/api/admin/themes'], queryFn: () => read(api.admin.themes.$get()) }),
  appointments: queryOptions({ queryKey: ['/api/admin/appointments'], queryFn: () => read(api.admin.appointments.$get()) }),
  /** The firm's availability (one object, not a list: read with useQuery). */
  bookingRules: queryOptions({ queryKey: ['/api/admin/booking-rules'], queryFn: () => read(api.admin['booking-rules'].$get()) }),
  componentVisibility: queryOptions({ queryKey: ['/api/admin/component-visibility'], queryFn: () => read(api.admin['component-visibility'].$get()) }),
  calendarSettings: queryOptions({ queryKey: ['/api/admin/calendar-settings'], queryFn: () => read(api.admin['calendar-settings'].$get()) }),
  blogSources: queryOptions({ queryKey: ['/api/admin/blog-sources'], queryFn: () => read(api.admin['blog-sources'].$get()) }),
  migrationStatus: queryOptions({ queryKey: ['/api/admin/migration/status'], queryFn: () => read(api.admin.migration.status.$get()) }),
};

/** SPEC §7: after blog or testimonial changes the public lists are refreshed too. */
export const publicQueries = {
  blogPosts: queryOptions({ queryKey: ['/api/blog-posts'], queryFn: () => read(api['blog-posts'].$get({ query: {} })) }),
  testimonials: queryOptions({ queryKey: ['/api/testimonials'], queryFn: () => read(api.testimonials.$get()) }),
  externalReviews: queryOptions({ queryKey: ['/api/external-reviews'], queryFn: () => read(api['external-reviews'].$get()) }),
  activeTheme: queryOptions({ queryKey: ['/api/themes/active'], queryFn: () => read(api.themes.active.$get()) }),
  componentVisibility: queryOptions({ queryKey: ['/api/component-visibility'], queryFn: () => read(api['component-visibility'].$get()) }),
};

const keysOf = <Q extends Record<string, { queryKey: QueryKey }>>(queries: Q) =>
  Object.fromEntries(Object.entries(queries).map(([name, q]) => [name, q.queryKey])) as { [K in keyof Q]: Q[K]['queryKey'] };

/** The lists' keys, for what a change invalidates. */
export const adminKeys = keysOf(adminQueries);
export const publicKeys = keysOf(publicQueries);

/** What a query's fetch resolves to (`QueryData<typeof adminQueries.testimonials>`). */
// biome-ignore lint/suspicious/noExplicitAny: matches any query function's arguments.
export type QueryData<Q> = Q extends { queryFn?: infer F } ? (F extends (...args: any[]) => infer R ? Awaited<R> : never) : never;

/** A row of a list query (`Row<typeof adminQueries.testimonials>`). */
export type Row<Q> = QueryData<Q> extends readonly (infer R)[] ? R : never;

/** A list from the admin API, typed by its route, with the SPEC §7 defaults of the shared query client. */
export function useAdminList<TData extends readonly unknown[], TKey extends QueryKey>(query: UseQueryOptions<TData, Error, TData, TKey>) {
  return useQuery(query);
}

export interface AdminMutationOptions<TVars, TResult> {
  mutationFn: (vars: TVars) => Promise<TResult>;
  /** Every list this change can affect; all are refetched after success, and after a failure. */
  invalidates: readonly QueryKey[];
  /** SPEC §8 success toast: a description ('Testimonial created successfully'), titled Success unless a title is given. */
  success?: string | { title: string; description?: string } | ((result: TResult, vars: TVars) => string | { title: string; description?: string });
  /** SPEC §8 failure toast description ('Failed to create testimonial'), titled Error, destructive; a function picks it from the error. */
  failure: string | ((error: Error) => string);
  onSuccess?: (result: TResult, vars: TVars) => void;
}

export function useAdminMutation<TVars = void, TResult = unknown>({
  mutationFn,
  invalidates,
  success,
  failure,
  onSuccess,
}: AdminMutationOptions<TVars, TResult>) {
  const queryClient = useQueryClient();
  return useMutation<TResult, Error, TVars>({
    mutationFn,
    onSuccess: async (result, vars) => {
      await Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      const message = typeof success === 'function' ? success(result, vars) : success;
      if (message) toast(typeof message === 'string' ? { title: 'Success', description: message } : message);
      onSuccess?.(result, vars);
    },
    onError: (error) => {
      const description = typeof failure === 'function' ? failure(error) : failure;
      console.error(description, error);
      toast({ title: 'Error', description, variant: 'destructive' });
      // A refused change often means the list is stale (someone else deleted or changed the row): reload it.
      void Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}
