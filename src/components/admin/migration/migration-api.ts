/**
 * The migration page's calls (SPEC §7 migration calls, and the run's progress): the
 * status and the current run as queries (the run is polled while it runs, so the bars move and a
 * reload finds it), and the hook for the migration's own actions.
 *
 * Why a hook of its own beside admin-api.ts's useAdminMutation: that hook titles every failure
 * 'Error', but SPEC §8 titles a failed migration 'Migration Failed' and a failed verification
 * 'Verification Failed', and a verification that finds mismatches is a failure although the call
 * itself succeeded. Table generation, whose failure is titled 'Error', uses useAdminMutation.
 */
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { type ApiData, api, read } from '../../../lib/api-client.ts';
import { toast } from '../../../lib/toast.ts';
import { adminQueries, type QueryData } from '../admin-api.ts';
import { errorMessage } from './migration-wizard.ts';

/** The page's queries: each key is the path it fetches (SPEC §7), each answer typed by its route. */
export const migrationQueries = {
  status: adminQueries.migrationStatus,
  /** The latest run: `{ run: null }` before the first one. */
  run: queryOptions({ queryKey: ['/api/admin/migration/run'], queryFn: () => read(api.admin.migration.run.$get()) }),
};

export const migrationKeys = {
  status: migrationQueries.status.queryKey,
  run: migrationQueries.run.queryKey,
};

/** The migration's own actions (SPEC §7 migration calls). */
export const migrationCalls = {
  createTable: () => read(api.admin.migration['create-table'].$post()),
  /** 202 { run }: starts, resumes, or reports the run in progress. */
  migrate: () => read(api.admin.migration.migrate.$post()),
  verify: () => read(api.admin.migration.verify.$post()),
};

/** GET /api/admin/migration/status (SPEC §3 Migration status, plus what the page shows beside it). */
export type MigrationStatus = QueryData<typeof migrationQueries.status>;
/** A migration run, as GET /api/admin/migration/run answers it. */
export type MigrationRun = NonNullable<QueryData<typeof migrationQueries.run>['run']>;
export type MigrationKindProgress = MigrationRun['kinds'][number];
/** POST /api/admin/migration/create-table */
export type CreateTableResult = ApiData<(typeof api.admin.migration)['create-table']['$post']>;
/** POST /api/admin/migration/verify: 'Verification Complete' only when ok. */
export type VerificationResult = ApiData<typeof api.admin.migration.verify.$post>;

/** How often the page asks for the run's progress while it runs. */
export const RUN_POLL_MS = 500;

export const useMigrationStatus = () => useQuery(migrationQueries.status);

/** The latest run (null before the first one), polled only while it is running. */
export const useMigrationRun = () =>
  useQuery({
    ...migrationQueries.run,
    // A failed poll keeps the last answer, so polling goes on until the run is seen to stop.
    refetchInterval: (query) => (query.state.data?.run?.state === 'running' ? RUN_POLL_MS : false),
  });

/**
 * A migration action whose failure shows SPEC §8's `failureTitle` with the error's message
 * (destructive, and logged like every admin failure); the success toast is the caller's, as it depends
 * on the answer.
 */
export function useMigrationAction<TResult>({
  mutationFn,
  failureTitle,
  onSuccess,
  onError,
}: {
  mutationFn: () => Promise<TResult>;
  failureTitle: 'Migration Failed' | 'Verification Failed';
  onSuccess: (result: TResult) => void | Promise<void>;
  onError?: () => void;
}) {
  return useMutation<TResult, Error, void>({
    mutationFn,
    onSuccess,
    onError: (error) => {
      console.error(failureTitle, error);
      toast({ title: failureTitle, description: errorMessage(error), variant: 'destructive' });
      onError?.();
    },
  });
}
