/**
 * SPEC §2 status card: the relational database the site runs on (Connected or Not Connected), the
 * cloud key-value database (DynamoDB: Configured or Not Configured), the region (or Not Set), and the
 * SPEC §8 setup alert. States are said in words, never by colour alone.
 */
import { CircleAlert, CircleCheck, LoaderCircle, RefreshCw } from 'lucide-react';
import { Button } from '../../ui/button.tsx';
import { Badge, Card, CardContent, CardHeader } from '../../ui/card.tsx';
import type { MigrationStatus } from './migration-api.ts';
import { databaseNames, setupAlert } from './migration-wizard.ts';

export default function MigrationStatusCard({ status, checking, onCheckAgain }: { status: MigrationStatus; checking: boolean; onCheckAgain: () => void }) {
  const alert = setupAlert(status);
  const database = databaseNames[status.database];
  return (
    <Card data-testid="migration-status">
      <CardHeader
        title="Migration Status"
        description="What the migration reads from and writes to, as the server sees it now."
        actions={
          <Button
            variant="outline"
            aria-disabled={checking || undefined}
            onClick={checking ? undefined : onCheckAgain}
            className="aria-disabled:cursor-wait aria-disabled:opacity-60"
          >
            {checking ? (
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />
            ) : (
              <RefreshCw aria-hidden="true" className="size-4" />
            )}
            Check Again
          </Button>
        }
      />
      <CardContent className="space-y-4">
        <dl className="grid gap-2 min-[360px]:grid-cols-2 sm:gap-3 lg:grid-cols-4">
          <StatusItem term={`${database} database`}>
            <Badge variant={status.postgresConfigured ? 'success' : 'destructive'}>{status.postgresConfigured ? 'Connected' : 'Not Connected'}</Badge>
          </StatusItem>
          <StatusItem term="DynamoDB">
            <Badge variant={status.awsConfigured ? 'success' : 'destructive'}>{status.awsConfigured ? 'Configured' : 'Not Configured'}</Badge>
          </StatusItem>
          <StatusItem term="AWS region">
            <span className={status.awsRegion ? 'font-medium' : 'font-medium text-muted-foreground'}>{status.awsRegion || 'Not Set'}</span>
          </StatusItem>
          {status.tableName && (
            <StatusItem term="DynamoDB table">
              <span className="break-all font-mono text-sm">{status.tableName}</span>
            </StatusItem>
          )}
        </dl>
        {/* A status region: announced when Check Again changes it, not on arrival. */}
        <p
          role="status"
          data-testid="setup-alert"
          className={`flex items-start gap-2 rounded-md border p-3 text-sm font-medium ${alert.ready ? 'border-emerald-700 text-foreground' : 'border-destructive text-destructive'}`}
        >
          {alert.ready ? (
            <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-700 dark:text-emerald-400" />
          ) : (
            <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          )}
          <span>{alert.text}</span>
        </p>
        {!alert.ready && <SetupHelp database={status.postgresConfigured ? null : database} aws={!status.awsConfigured} />}
      </CardContent>
    </Card>
  );
}

/** What to set, by name, for what is missing (issue 19); the README's 'DynamoDB migration' section says more. */
function SetupHelp({ database, aws }: { database: string | null; aws: boolean }) {
  const code = (name: string) => <code className="rounded bg-muted px-1 font-mono text-xs">{name}</code>;
  return (
    <div className="space-y-1 text-sm" data-testid="setup-help">
      <p className="font-medium">To set it up, on every API server:</p>
      <ul className="list-disc space-y-1 pl-5">
        {database && (
          <li>
            The {database} database: {database === 'SQLite' ? <>{code('SQLITE_PATH')} (a writable file)</> : <>{code('DATABASE_URL')} (postgres://…)</>}.
          </li>
        )}
        {aws && (
          <li>
            DynamoDB: {code('AWS_REGION')} with credentials ({code('AWS_ACCESS_KEY_ID')} and {code('AWS_SECRET_ACCESS_KEY')}, or the server’s role), or{' '}
            {code('DYNAMODB_ENDPOINT')} for DynamoDB Local; optionally {code('DYNAMODB_TABLE')} (default {code('firm-site')}).
          </li>
        )}
      </ul>
      <p className="text-muted-foreground">Then restart the servers and Check Again. The project README’s “DynamoDB migration” section has the details.</p>
    </div>
  );
}

function StatusItem({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0 space-y-1 rounded-md border border-border p-3">
      <dt className="text-sm text-muted-foreground">{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
