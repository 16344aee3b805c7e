import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import type { MigrationRun, VerificationResult } from './migration-api.ts';
import {
  enabledActions,
  errorMessage,
  messages,
  mismatchCount,
  nextStep,
  numberedSteps,
  percentDone,
  progressText,
  runFailureMessage,
  runTotals,
  setupAlert,
  stepFromServer,
  stepProgress,
  verificationFailureMessage,
  watchRun,
  wizardSteps,
  type WizardEvent,
  type WizardStep,
} from './migration-wizard.ts';

const run = (state: MigrationRun['state'], id = 'run-1', kinds: MigrationRun['kinds'] = []): MigrationRun => ({
  id,
  state,
  startedAt: '2026-06-01T17:00:00.000Z',
  finishedAt: state === 'running' ? null : '2026-06-01T17:01:00.000Z',
  error: state === 'failed' || state === 'interrupted' ? 'DynamoDB could not be reached' : null,
  kinds,
});

const ready = { ready: true };
const notReady = { ready: false };

describe('SPEC §4 steps', () => {
  it('has five steps in order, four of them numbered with SPEC §2 titles', () => {
    expect(wizardSteps).toEqual(['setup', 'table', 'migrate', 'verify', 'complete']);
    expect(numberedSteps.map((s) => `${s.number} ${s.title}`)).toEqual(['1 Setup Verification', '2 Create Table', '3 Migrate Data', '4 Verify Migration']);
  });

  it('shows each step as completed, current or pending by position', () => {
    expect(wizardSteps.map((s) => stepProgress(s, 'migrate'))).toEqual(['completed', 'completed', 'current', 'pending', 'pending']);
    expect(wizardSteps.map((s) => stepProgress(s, 'setup'))).toEqual(['current', 'pending', 'pending', 'pending', 'pending']);
    expect(wizardSteps.map((s) => stepProgress(s, 'complete'))).toEqual(['completed', 'completed', 'completed', 'completed', 'current']);
  });
});

describe('where the wizard opens (from the server)', () => {
  it('waits at setup until the status is ready, whatever the run', () => {
    expect(stepFromServer(notReady, null)).toBe('setup');
    expect(stepFromServer(notReady, run('completed'))).toBe('setup');
  });
  it('comes to the table without a run, to migrate with a running, failed or interrupted run, to verify with a completed one', () => {
    expect(stepFromServer(ready, null)).toBe('table');
    expect(stepFromServer(ready, run('running'))).toBe('migrate');
    expect(stepFromServer(ready, run('failed'))).toBe('migrate');
    expect(stepFromServer(ready, run('interrupted'))).toBe('migrate');
    expect(stepFromServer(ready, run('completed'))).toBe('verify');
  });
});

describe('SPEC §4 transitions', () => {
  const walk = (start: WizardStep | null, events: WizardEvent[]) => events.reduce<WizardStep | null>((step, e) => nextStep(step, e), start);

  it('walks setup -> table -> migrate -> verify -> complete', () => {
    expect(walk(null, [{ type: 'server', status: ready, run: null }])).toBe('table');
    expect(walk('table', [{ type: 'tableGenerated' }])).toBe('migrate');
    expect(walk('migrate', [{ type: 'migrationCompleted' }])).toBe('verify');
    expect(walk('verify', [{ type: 'verified', ok: true }])).toBe('complete');
  });

  it('keeps the current step on a failure (a verification with mismatches included)', () => {
    expect(walk('verify', [{ type: 'verified', ok: false }])).toBe('verify');
    // A table generation that fails sends no event: nothing else can move the step.
    expect(walk('table', [{ type: 'server', status: ready, run: null }])).toBe('table');
  });

  it('does not let a later server answer move the wizard back once the admin moved on', () => {
    expect(walk('migrate', [{ type: 'server', status: ready, run: null }])).toBe('migrate');
    expect(walk('verify', [{ type: 'server', status: ready, run: run('completed') }])).toBe('verify');
    expect(walk('complete', [{ type: 'server', status: ready, run: run('completed') }])).toBe('complete');
  });

  it('goes back to setup when the setup stops being ready, and on from setup once it is', () => {
    expect(walk('verify', [{ type: 'server', status: notReady, run: run('completed') }])).toBe('setup');
    expect(walk('setup', [{ type: 'server', status: ready, run: run('completed') }])).toBe('verify');
    expect(walk('setup', [{ type: 'server', status: ready, run: null }])).toBe('table');
  });

  it('goes back to migrate when the table commands are generated again from a later step (SPEC: generation moves to migrate)', () => {
    expect(walk('verify', [{ type: 'tableGenerated' }])).toBe('migrate');
    expect(walk('complete', [{ type: 'tableGenerated' }])).toBe('migrate');
  });

  it('ignores outcomes that do not belong to the current step', () => {
    expect(walk('table', [{ type: 'migrationCompleted' }])).toBe('table');
    expect(walk('migrate', [{ type: 'verified', ok: true }])).toBe('migrate');
    expect(walk('setup', [{ type: 'tableGenerated' }])).toBe('setup');
    expect(walk(null, [{ type: 'tableGenerated' }])).toBeNull();
  });
});

describe('SPEC §4 buttons', () => {
  it('enables Migrate only at migrate, Verify only at verify, and table generation only when ready', () => {
    const at = (step: WizardStep, isReady = true) => enabledActions(step, isReady);
    expect(at('setup', false)).toEqual({ generate: false, migrate: false, verify: false });
    expect(at('table')).toEqual({ generate: true, migrate: false, verify: false });
    expect(at('migrate')).toEqual({ generate: true, migrate: true, verify: false });
    expect(at('verify')).toEqual({ generate: true, migrate: false, verify: true });
    expect(at('complete')).toEqual({ generate: true, migrate: false, verify: false });
    expect(at('migrate', false)).toEqual({ generate: false, migrate: false, verify: false });
  });
});

describe('SPEC §8 setup alert', () => {
  const status = (postgresConfigured: boolean, awsConfigured: boolean, database: 'sqlite' | 'postgres' = 'postgres') => ({
    postgresConfigured,
    awsConfigured,
    ready: postgresConfigured && awsConfigured,
    database,
  });

  it("says 'All systems ready for migration!' when ready", () => {
    expect(setupAlert(status(true, true))).toEqual({ ready: true, text: 'All systems ready for migration!' });
  });
  it("gives SPEC's text when both are missing", () => {
    expect(setupAlert(status(false, false)).text).toBe(
      'PostgreSQL not connected. AWS credentials not configured. Please check your environment configuration.',
    );
  });
  it('names only what is missing, and the database the site runs on', () => {
    expect(setupAlert(status(false, true)).text).toBe('PostgreSQL not connected. Please check your environment configuration.');
    expect(setupAlert(status(true, false)).text).toBe('AWS credentials not configured. Please check your environment configuration.');
    expect(setupAlert(status(false, true, 'sqlite')).text).toBe('SQLite not connected. Please check your environment configuration.');
    expect(setupAlert(status(false, true, 'sqlite')).ready).toBe(false);
  });
});

describe("SPEC §8 failures carry the error's message", () => {
  it("uses the server's { error } when there is one, else the error's text", () => {
    expect(errorMessage(new ApiError(502, JSON.stringify({ error: 'DynamoDB did not answer at http://127.0.0.1:8000' })))).toBe(
      'DynamoDB did not answer at http://127.0.0.1:8000',
    );
    expect(errorMessage(new ApiError(500, 'Internal Server Error'))).toBe('500: Internal Server Error');
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(errorMessage('nope')).toBe('Something went wrong. Please try again.');
  });
  it("tells a stopped run's reason", () => {
    expect(runFailureMessage(run('failed'))).toBe('DynamoDB could not be reached');
    expect(runFailureMessage({ state: 'interrupted', error: null })).toBe('The migration was interrupted. Start it again to resume.');
  });
});

describe('progress', () => {
  it("shows 'done / total' and a percentage, an empty kind as complete", () => {
    expect(progressText({ done: 1250, total: 100000 })).toBe('1,250 / 100,000');
    expect(percentDone({ done: 1, total: 3 })).toBe(33);
    expect(percentDone({ done: 3, total: 3 })).toBe(100);
    expect(percentDone({ done: 0, total: 0 })).toBe(100);
    expect(percentDone({ done: 5, total: 3 })).toBe(100);
  });
  it('adds up the kinds', () => {
    const r = run('running', 'r', [
      { kind: 'testimonials', label: 'Testimonials', done: 2, total: 5 },
      { kind: 'users', label: 'User data', done: 1, total: 1 },
    ]);
    expect(runTotals(r)).toEqual({ done: 3, total: 6 });
    expect(messages.migrationCompleted(r)).toBe('Data successfully migrated: 6 items.');
  });
});

describe('watchRun: each finished run is announced once, and only if the page was waiting for it', () => {
  it('follows a running run to its end', () => {
    let w = watchRun(null, run('running'));
    expect(w).toEqual({ watchedId: 'run-1', outcome: null });
    w = watchRun(w.watchedId, run('running'));
    expect(w.outcome).toBeNull();
    w = watchRun(w.watchedId, run('completed'));
    expect(w).toEqual({ watchedId: null, outcome: 'completed' });
    // The same answer again (a re-render, a refetch) tells nothing more.
    expect(watchRun(w.watchedId, run('completed')).outcome).toBeNull();
  });
  it('reports failed and interrupted runs as failures', () => {
    expect(watchRun('run-1', run('failed')).outcome).toBe('failed');
    expect(watchRun('run-1', run('interrupted')).outcome).toBe('failed');
  });
  it('shows a run found finished without announcing it', () => {
    expect(watchRun(null, run('completed'))).toEqual({ watchedId: null, outcome: null });
    expect(watchRun(null, null)).toEqual({ watchedId: null, outcome: null });
    // An older run still on screen while the page waits for a new one.
    expect(watchRun('run-2', run('completed', 'run-1'))).toEqual({ watchedId: 'run-2', outcome: null });
  });
  it('announces a run the page started even when the answer already says it finished', () => {
    expect(watchRun('run-2', run('completed', 'run-2')).outcome).toBe('completed');
  });
});

describe('verification summary', () => {
  const result = (mismatches: number[], listed = 0): Pick<VerificationResult, 'kinds' | 'mismatches'> => ({
    kinds: mismatches.map((n, i) => ({ kind: 'testimonials', label: `k${i}`, source: 10, target: 10 - n, mismatches: n })),
    mismatches: Array.from({ length: listed }, (_, i) => ({ kind: 'testimonials', id: `id-${i}`, problem: 'missing in DynamoDB' })),
  });
  it("counts every mismatch, beyond the listed ones, and words 'N mismatches found'", () => {
    expect(mismatchCount(result([1, 0, 700], 500))).toBe(701);
    expect(verificationFailureMessage(result([1, 0, 0], 1))).toBe('1 mismatch found');
    expect(verificationFailureMessage(result([2, 0, 1001], 500))).toBe('1,003 mismatches found');
    expect(verificationFailureMessage(result([0], 0))).toBe('The data in DynamoDB does not match the source');
  });
  it('words the success toasts', () => {
    expect(messages.verificationComplete({ kinds: [{ kind: 'users', label: 'User data', source: 3, target: 3, mismatches: 0 }] })).toBe(
      'Migration verification successful: all 3 items match.',
    );
    expect(messages.tableGenerated('firm-site', true)).toBe('Table creation commands are ready. Table firm-site was created.');
    expect(messages.tableGenerated('firm-site', false)).toBe('Table creation commands are ready. Table firm-site already exists; nothing was changed.');
  });
});
