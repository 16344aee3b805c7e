/**
 * How admin screens talk to the API: query keys (SPEC §7: the key's parts joined with slashes are the
 * path the default query fetches), list hooks, and one mutation hook that shows the SPEC §8 toasts
 * and refreshes every list a change can affect. The server republishes the public pages itself.
 */
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { toast } from '../../lib/toast.ts';

export const adminKeys = {
  contactSubmissions: ['/api/admin/contact-submissions'],
  blogPosts: ['/api/admin/blog-posts'],
  testimonials: ['/api/admin/testimonials'],
  themes: ['/api/admin/themes'],
  appointments: ['/api/admin/appointments'],
  componentVisibility: ['/api/admin/component-visibility'],
  calendarSettings: ['/api/admin/calendar-settings'],
  blogSources: ['/api/admin/blog-sources'],
  migrationStatus: ['/api/admin/migration/status'],
} as const satisfies Record<string, QueryKey>;

/** SPEC §7: after blog or testimonial changes the public lists are refreshed too. */
export const publicKeys = {
  blogPosts: ['/api/blog-posts'],
  testimonials: ['/api/testimonials'],
  activeTheme: ['/api/themes/active'],
  componentVisibility: ['/api/component-visibility'],
} as const satisfies Record<string, QueryKey>;

/** A list from the admin API, with the SPEC §7 defaults of the shared query client. */
export function useAdminList<T>(key: QueryKey) {
  return useQuery<T[]>({ queryKey: key });
}

/** Sends a JSON call and returns the parsed answer (undefined for 204). */
export async function sendJson<T = unknown>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, path, body);
  return (res.status === 204 ? undefined : await res.json()) as T;
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
