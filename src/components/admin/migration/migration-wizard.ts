/**
 * The migration wizard's rules (SPEC §2 /admin/migration, §4 Migration wizard, §8 migration
 * messages), apart from the React code so they are unit tested: which step is current, what each
 * step shows (completed, current or pending by position), which button is enabled where, the setup
 * alert, the toasts' words, progress arithmetic and the verification summary.
 */
import { ApiError } from '../../../lib/api-client.ts';
import { migrationSetupAlert } from '../../../shared/migration.ts';
import type { MigrationKindProgress, MigrationRun, MigrationStatus, VerificationResult } from './migration-api.ts';

/** SPEC §4: the steps in order. The first four are numbered on the page; complete is the final card. */
export const wizardSteps = ['setup', 'table', 'migrate', 'verify', 'complete'] as const;
export type WizardStep = (typeof wizardSteps)[number];

/** The four numbered steps of SPEC §2, with their titles. */
export const numberedSteps: readonly { step: Exclude<WizardStep, 'complete'>; number: number; title: string }[] = [
  { step: 'setup', number: 1, title: 'Setup Verification' },
  { step: 'table', number: 2, title: 'Create Table' },
  { step: 'migrate', number: 3, title: 'Migrate Data' },
  { step: 'verify', number: 4, title: 'Verify Migration' },
];

export type StepProgress = 'completed' | 'current' | 'pending';

/** SPEC §4: by position only. At 'complete' every numbered step is completed. */
export function stepProgress(step: WizardStep, current: WizardStep): StepProgress {
  const at = wizardSteps.indexOf(step);
  const now = wizardSteps.indexOf(current);
  return at < now ? 'completed' : at === now ? 'current' : 'pending';
}

export const stepProgressLabels: Record<StepProgress, string> = { completed: 'Completed', current: 'Current step', pending: 'Pending' };

/**
 * Where the wizard stands when the page opens (or the status changes), from what the server knows:
 * nothing can happen until the setup is ready; a completed run waits to be verified (a verification
 * is not stored, so after a reload it is asked again); a run that is running, failed or was
 * interrupted is at the migrate step (Start Migration resumes it); otherwise the table comes next.
 */
export function stepFromServer(status: Pick<MigrationStatus, 'ready'>, run: MigrationRun | null): WizardStep {
  if (!status.ready) return 'setup';
  if (!run) return 'table';
  return run.state === 'completed' ? 'verify' : 'migrate';
}

export type WizardEvent =
  /** Status and run as the server reports them (first load, or the status checked again). */
  | { type: 'server'; status: Pick<MigrationStatus, 'ready'>; run: MigrationRun | null }
  | { type: 'tableGenerated' }
  | { type: 'migrationCompleted' }
  | { type: 'verified'; ok: boolean };

/**
 * SPEC §4: table generation moves to migrate, a completed migration to verify, a clean verification
 * to complete; a failure (including a verification that finds mismatches) keeps the current step.
 * Generating the table commands again from a later step goes back to migrate, as SPEC says: the way
 * to copy what changed since (the table is kept; migrating again overwrites the same items).
 * The server only decides while the wizard has not got past the setup, or when the setup is no longer
 * ready: once the admin moved on, a status checked again does not move the wizard back.
 */
export function nextStep(current: WizardStep | null, event: WizardEvent): WizardStep | null {
  if (event.type === 'server') {
    if (current === null || current === 'setup' || !event.status.ready) return stepFromServer(event.status, event.run);
    return current;
  }
  // Actions are offered only once the page knows where it stands.
  if (current === null) return null;
  switch (event.type) {
    case 'tableGenerated':
      return current === 'setup' ? current : 'migrate';
    case 'migrationCompleted':
      return current === 'migrate' ? 'verify' : current;
    case 'verified':
      return event.ok && current === 'verify' ? 'complete' : current;
  }
}

/** SPEC §4: table generation needs status ready; Migrate only at migrate, Verify only at verify. */
export function enabledActions(step: WizardStep, ready: boolean) {
  return { generate: ready && step !== 'setup', migrate: ready && step === 'migrate', verify: ready && step === 'verify' };
}

export const databaseNames: Record<MigrationStatus['database'], string> = { postgres: 'PostgreSQL', sqlite: 'SQLite' };

/**
 * SPEC §8 setup alert, in the words the API also uses (src/shared/migration.ts): not ready names what
 * is missing, in SPEC's words and order ('PostgreSQL not connected.' naming the database the site
 * runs on, 'AWS credentials not configured.'), then 'Please check your environment configuration.';
 * with only one missing, only its sentence stays.
 */
export function setupAlert(status: Pick<MigrationStatus, 'postgresConfigured' | 'awsConfigured' | 'ready' | 'database'>): { ready: boolean; text: string } {
  return { ready: status.ready, text: migrationSetupAlert(status) };
}

/**
 * SPEC §8 'each with the error's message': the server's `{ error }` when it sent one (its words are
 * meant for the admin), else the error's own text ('Failed to fetch' when the server is unreachable).
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.details.error || error.message;
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Please try again.';
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Percent done, for the bar's width: a kind with nothing to copy is complete. */
export function percentDone({ done, total }: Pick<MigrationKindProgress, 'done' | 'total'>): number {
  if (total <= 0) return 100;
  return Math.min(100, Math.max(0, Math.floor((done / total) * 100)));
}

/** 'done / total' as the page shows it beside each bar. */
export const progressText = ({ done, total }: Pick<MigrationKindProgress, 'done' | 'total'>) =>
  `${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`;

export function runTotals(run: Pick<MigrationRun, 'kinds'>): { done: number; total: number } {
  return run.kinds.reduce((sum, k) => ({ done: sum.done + k.done, total: sum.total + k.total }), { done: 0, total: 0 });
}

/**
 * Which run the page is waiting for, and whether it just finished. The page waits for a run it
 * started (or resumed) and for one it found running; when that run is no longer running the outcome
 * is told once (the toast, and the step for a completed one). A run found already finished on
 * opening the page is shown, not announced.
 */
export function watchRun(watchedId: string | null, run: MigrationRun | null): { watchedId: string | null; outcome: 'completed' | 'failed' | null } {
  if (!run) return { watchedId, outcome: null };
  if (run.state === 'running') return { watchedId: run.id, outcome: null };
  if (run.id !== watchedId) return { watchedId, outcome: null };
  return { watchedId: null, outcome: run.state === 'completed' ? 'completed' : 'failed' };
}

export const runStateLabels: Record<MigrationRun['state'], string> = {
  running: 'In progress',
  completed: 'Completed',
  failed: 'Failed',
  interrupted: 'Interrupted',
};

/** A failed or interrupted run is picked up where it stopped by the same Start Migration button. */
export const canResume = (run: MigrationRun | null) => run !== null && (run.state === 'failed' || run.state === 'interrupted');

/** SPEC §8 failure toast of a run that stopped: its reason as the server words it. */
export const runFailureMessage = (run: Pick<MigrationRun, 'error' | 'state'>) =>
  run.error || (run.state === 'interrupted' ? 'The migration was interrupted. Start it again to resume.' : 'The migration stopped before it finished.');

/** Every mismatch the server counted (its list holds at most the first 500). */
export function mismatchCount(result: Pick<VerificationResult, 'kinds' | 'mismatches'>): number {
  return Math.max(
    result.kinds.reduce((sum, k) => sum + k.mismatches, 0),
    result.mismatches.length,
  );
}

/** SPEC §8 'Verification Failed' with its message: how many mismatches were found. */
export function verificationFailureMessage(result: Pick<VerificationResult, 'kinds' | 'mismatches'>): string {
  const n = mismatchCount(result);
  return n > 0 ? `${plural(n, 'mismatch', 'mismatches')} found` : 'The data in DynamoDB does not match the source';
}

/** The toasts' descriptions: SPEC §8's meaning of each title, with what the admin would want to know. */
export const messages = {
  tableGenerated: (tableName: string, created: boolean) =>
    `Table creation commands are ready. ${created ? `Table ${tableName} was created.` : `Table ${tableName} already exists; nothing was changed.`}`,
  migrationCompleted: (run: Pick<MigrationRun, 'kinds'>) => `Data successfully migrated: ${plural(runTotals(run).total, 'item')}.`,
  verificationComplete: (result: Pick<VerificationResult, 'kinds'>) =>
    `Migration verification successful: all ${plural(
      result.kinds.reduce((sum, k) => sum + k.source, 0),
      'item',
    )} match.`,
};
