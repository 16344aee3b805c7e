/**
 * /admin/migration (SPEC §2, §4 Migration wizard, §7 migration calls, §8 migration messages):
 * the one-way copy of the site's data from its relational database to DynamoDB. A status card with
 * the setup alert; four numbered steps (Setup Verification, Create Table, Migrate Data, Verify
 * Migration), each completed, current or pending by position; a final 'Migration Complete' card; and
 * the list of what is migrated.
 *
 * Where the wizard stands comes from the server when the page opens (a running run is followed live,
 * a completed one waits to be verified), then moves with the admin's actions (./migration-wizard.ts).
 */
import { useQueryClient } from '@tanstack/react-query';
import { CircleCheck, Database, LoaderCircle, Play, ShieldCheck, Table2 } from 'lucide-react';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { toast } from '../../../lib/toast.ts';
import { migrationKinds } from '../../../shared/migration.ts';
import AdminPage from '../AdminPage.tsx';
import { useAdminMutation } from '../admin-api.ts';
import { Button } from '../../ui/button.tsx';
import { Card, CardContent, CardHeader } from '../../ui/card.tsx';
import { ErrorState, LoadingState } from '../../ui/states.tsx';
import CodeBlock from './CodeBlock.tsx';
import { migrationCalls, migrationKeys, useMigrationAction, useMigrationRun, useMigrationStatus } from './migration-api.ts';
import {
  canResume,
  databaseNames,
  enabledActions,
  errorMessage,
  messages,
  nextStep,
  numberedSteps,
  runFailureMessage,
  stepProgress,
  verificationFailureMessage,
  watchRun,
  type WizardStep,
} from './migration-wizard.ts';
import MigrationStatusCard from './MigrationStatusCard.tsx';
import RunProgress from './RunProgress.tsx';
import VerificationReport from './VerificationReport.tsx';
import { StepHint, WizardStepCard } from './WizardStepCard.tsx';

const busyClass = 'aria-disabled:cursor-wait aria-disabled:opacity-60';
const spinner = <LoaderCircle aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />;

export default function MigrationScreen() {
  const queryClient = useQueryClient();
  const statusQuery = useMigrationStatus();
  const runQuery = useMigrationRun();
  const [step, dispatch] = useReducer(nextStep, null);
  const status = statusQuery.data;
  const run = runQuery.data?.run ?? null;

  // The server decides where the wizard opens (and whether the setup still holds).
  useEffect(() => {
    if (status && runQuery.isSuccess) dispatch({ type: 'server', status, run });
  }, [status, run, runQuery.isSuccess]);

  // A run the page started or found running: tell its outcome once, when it stops.
  const watched = useRef<string | null>(null);
  useEffect(() => {
    const { watchedId, outcome } = watchRun(watched.current, run);
    watched.current = watchedId;
    if (!run || !outcome) return;
    if (outcome === 'completed') {
      toast({ title: 'Migration Completed', description: messages.migrationCompleted(run) });
      dispatch({ type: 'migrationCompleted' });
    } else {
      toast({ title: 'Migration Failed', description: runFailureMessage(run), variant: 'destructive' });
    }
  }, [run]);

  const verify = useMigrationAction({
    mutationFn: migrationCalls.verify,
    failureTitle: 'Verification Failed',
    onSuccess: (result) => {
      if (result.ok) toast({ title: 'Verification Complete', description: messages.verificationComplete(result) });
      else toast({ title: 'Verification Failed', description: verificationFailureMessage(result), variant: 'destructive' });
      dispatch({ type: 'verified', ok: result.ok });
    },
  });
  const resetVerification = verify.reset;

  const createTable = useAdminMutation({
    mutationFn: migrationCalls.createTable,
    invalidates: [],
    success: (result) => ({ title: 'Table Commands Generated', description: messages.tableGenerated(result.tableName, result.created) }),
    failure: errorMessage,
    onSuccess: () => {
      resetVerification();
      dispatch({ type: 'tableGenerated' });
    },
  });

  const migrate = useMigrationAction({
    mutationFn: migrationCalls.migrate,
    failureTitle: 'Migration Failed',
    onSuccess: async ({ run: started }) => {
      // Follow this run from now on; an older answer still on its way must not replace it.
      watched.current = started.id;
      await queryClient.cancelQueries({ queryKey: migrationKeys.run });
      queryClient.setQueryData(migrationKeys.run, { run: started });
    },
    // The server may have recorded how far a run got before it failed.
    onError: () => void queryClient.invalidateQueries({ queryKey: migrationKeys.run }),
  });

  // When the step moves on, the button just used may no longer apply (disabled): the focus goes to
  // the new step's heading rather than to the page's start (WCAG 2.4.3).
  const headings = useRef<Partial<Record<WizardStep, HTMLHeadingElement | null>>>({});
  const previousStep = useRef<WizardStep | null>(null);
  useEffect(() => {
    const before = previousStep.current;
    previousStep.current = step;
    if (before === null || step === null || before === step) return;
    const frame = requestAnimationFrame(() => {
      const active = document.activeElement;
      const lost = !active || active === document.body || (active instanceof HTMLElement && active.matches(':disabled'));
      if (lost) headings.current[step]?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [step]);
  const headingRef = useCallback((s: WizardStep) => (el: HTMLHeadingElement | null) => void (headings.current[s] = el), []);

  const checkAgain = () => void Promise.all([statusQuery.refetch(), runQuery.refetch()]);

  let wizard;
  // (step is null for the one render before the server's answer reaches the reducer.)
  if (statusQuery.isPending || runQuery.isPending || (statusQuery.isSuccess && runQuery.isSuccess && !step)) wizard = <LoadingState />;
  else if (statusQuery.isError || (runQuery.isError && !runQuery.data)) {
    wizard = <ErrorState message="The migration status could not be loaded." onRetry={checkAgain} />;
  } else if (status && step) {
    const database = databaseNames[status.database];
    const can = enabledActions(step, status.ready);
    const running = run?.state === 'running';
    const migrateBusy = migrate.isPending || running;
    const progress = (s: WizardStep) => stepProgress(s, step);
    const [setup, table, migrateStep, verifyStep] = numberedSteps;

    wizard = (
      <>
        <MigrationStatusCard status={status} checking={statusQuery.isFetching} onCheckAgain={checkAgain} />

        <ol aria-label="Migration steps" className="space-y-4">
          <WizardStepCard
            ref={headingRef('setup')}
            number={setup!.number}
            title={setup!.title}
            progress={progress('setup')}
            description={
              status.ready
                ? `${database} is connected and DynamoDB is configured.`
                : `${database} must be connected and DynamoDB configured (a region with AWS credentials, or an endpoint). Fix what the status above reports, then check again.`
            }
          />

          <WizardStepCard
            ref={headingRef('table')}
            number={table!.number}
            title={table!.title}
            progress={progress('table')}
            description={
              <>
                Creates the DynamoDB table {status.tableName ? <code className="font-mono text-foreground">{status.tableName}</code> : null} if it does not
                exist yet (running it again is harmless), and shows its definition as an AWS CLI command and as JSON.
              </>
            }
          >
            <div className="space-y-2">
              <Button
                disabled={!can.generate}
                aria-disabled={createTable.isPending || undefined}
                aria-describedby={can.generate ? undefined : 'table-hint'}
                onClick={createTable.isPending ? undefined : () => createTable.mutate()}
                className={busyClass}
              >
                {createTable.isPending ? spinner : <Table2 aria-hidden="true" className="size-4" />}
                {createTable.isPending ? 'Generating...' : 'Generate Table Commands'}
              </Button>
              {!can.generate && <StepHint id="table-hint">Available once the setup is verified.</StepHint>}
            </div>
            {createTable.data && (
              <div className="space-y-3" data-testid="table-commands">
                <CodeBlock label="AWS CLI command" code={createTable.data.cliCommand} wrap testId="cli-command" />
                <CodeBlock label="Table definition (JSON)" code={JSON.stringify(createTable.data.definition, null, 2)} testId="table-definition" />
              </div>
            )}
          </WizardStepCard>

          <WizardStepCard
            ref={headingRef('migrate')}
            number={migrateStep!.number}
            title={migrateStep!.title}
            progress={progress('migrate')}
            description="Copies every record to DynamoDB in batches. Running it again writes the same items, without duplicates; a migration that stopped resumes where it stopped."
          >
            <div className="space-y-2">
              <Button
                disabled={!can.migrate}
                aria-disabled={(can.migrate && migrateBusy) || undefined}
                aria-describedby={can.migrate ? (canResume(run) ? 'migrate-resume' : undefined) : 'migrate-hint'}
                onClick={migrateBusy ? undefined : () => migrate.mutate()}
                className={busyClass}
              >
                {can.migrate && migrateBusy ? spinner : <Play aria-hidden="true" className="size-4" />}
                {can.migrate && migrate.isPending ? 'Starting...' : can.migrate && running ? 'Migrating...' : 'Start Migration'}
              </Button>
              {!can.migrate && (
                <StepHint id="migrate-hint">
                  {step === 'verify' || step === 'complete'
                    ? 'The migration has completed. To copy changes made since, generate the table commands again, then start the migration again.'
                    : 'Available once the table commands are generated.'}
                </StepHint>
              )}
              {can.migrate && canResume(run) && (
                <StepHint id="migrate-resume">The last migration stopped. Start Migration resumes it from where it stopped.</StepHint>
              )}
            </div>
            {run && <RunProgress run={run} />}
          </WizardStepCard>

          <WizardStepCard
            ref={headingRef('verify')}
            number={verifyStep!.number}
            title={verifyStep!.title}
            progress={progress('verify')}
            description={`Compares DynamoDB with ${database}: the items of each kind, counted on both sides and compared one by one.`}
          >
            <div className="space-y-2">
              <Button
                disabled={!can.verify}
                aria-disabled={verify.isPending || undefined}
                aria-describedby={can.verify || step === 'complete' ? undefined : 'verify-hint'}
                onClick={verify.isPending ? undefined : () => verify.mutate()}
                className={busyClass}
              >
                {verify.isPending ? spinner : <ShieldCheck aria-hidden="true" className="size-4" />}
                {verify.isPending ? 'Verifying...' : 'Verify Migration'}
              </Button>
              {!can.verify && step !== 'complete' && <StepHint id="verify-hint">Available once the migration has completed.</StepHint>}
            </div>
            {verify.data && <VerificationReport result={verify.data} database={database} />}
            {verify.data && !verify.data.ok && (
              <p className="text-sm text-muted-foreground">
                Mismatches usually mean the data changed after the migration: generate the table commands again and start the migration again to copy the
                changes, then verify again.
              </p>
            )}
          </WizardStepCard>
        </ol>

        {step === 'complete' && (
          <Card className="border-2 border-emerald-700" data-testid="migration-complete">
            <div className="flex gap-3 p-4 sm:gap-4 sm:p-6">
              <CircleCheck aria-hidden="true" className="size-9 shrink-0 text-emerald-700 dark:text-emerald-400" />
              <div className="min-w-0 space-y-1">
                <h2
                  ref={headingRef('complete')}
                  tabIndex={-1}
                  className="text-lg font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                >
                  Migration Complete
                </h2>
                <p className="text-sm text-muted-foreground">
                  All the site&apos;s data is in DynamoDB{status.tableName ? ` table ${status.tableName}` : ''} and matches {database}
                  {verify.data ? `: ${verify.data.kinds.reduce((sum, k) => sum + k.target, 0).toLocaleString('en-US')} items` : ''}. The site itself keeps
                  running on {database}.
                </p>
              </div>
            </div>
          </Card>
        )}
      </>
    );
  }

  return (
    <AdminPage title="Data Migration" description="A one-way copy of the site's data to DynamoDB, the cloud key-value database.">
      {wizard}
      <WhatIsMigrated />
    </AdminPage>
  );
}

/** SPEC §2: the card listing what is migrated, in SPEC's order and words. */
function WhatIsMigrated() {
  return (
    <Card>
      <CardHeader title="What Is Migrated" description="Every record of these kinds is copied to DynamoDB." />
      <CardContent>
        <ul className="grid gap-2 text-sm sm:grid-cols-2 lg:grid-cols-3" data-testid="migrated-kinds">
          {migrationKinds.map((k) => (
            <li key={k.kind} className="flex items-center gap-2">
              <Database aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
              {k.label}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
