/**
 * The migration page's calls (SPEC §7 migration calls; the run's progress is issue 8's addition): the
 * status and the current run as queries (the run is polled while it runs, so the bars move and a
 * reload finds it), and the hook for the migration's own actions.
 *
 * Why a hook of its own beside admin-api.ts's useAdminMutation: that hook titles every failure
 * 'Error', but SPEC §8 titles a failed migration 'Migration Failed' and a failed verification
 * 'Verification Failed', and a verification that finds mismatches is a failure although the call
 * itself succeeded. Table generation, whose failure is titled 'Error', uses useAdminMutation.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { toast } from '../../../lib/toast.ts';
import type { MigrationRun, MigrationStatus } from '../../../shared/migration.ts';
import { adminKeys } from '../admin-api.ts';
import { errorMessage } from './migration-wizard.ts';

export const migrationKeys = {
  status: adminKeys.migrationStatus,
  run: ['/api/admin/migration/run'],
} as const;

/** How often the page asks for the run's progress while it runs. */
export const RUN_POLL_MS = 500;

export const useMigrationStatus = () => useQuery<MigrationStatus>({ queryKey: migrationKeys.status });

/** The latest run (null before the first one), polled only while it is running. */
export const useMigrationRun = () =>
  useQuery<{ run: MigrationRun | null }>({
    queryKey: migrationKeys.run,
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
