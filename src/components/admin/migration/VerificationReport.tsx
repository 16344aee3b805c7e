/**
 * What a verification found: per kind, the items in the source database and in DynamoDB and
 * the mismatches, then every mismatch the server listed (kind, the item's id, what differs).
 */
import { CircleAlert, CircleCheck } from 'lucide-react';
import { migrationKinds } from '../../../shared/migration.ts';
import type { VerificationResult } from './migration-api.ts';
import { mismatchCount, plural, verificationFailureMessage } from './migration-wizard.ts';

const kindLabel = (kind: string) => migrationKinds.find((k) => k.kind === kind)?.label ?? kind;

export default function VerificationReport({ result, database }: { result: VerificationResult; database: string }) {
  const total = mismatchCount(result);
  return (
    <div className="space-y-4" data-testid="verification">
      <p className={`flex items-start gap-2 text-sm font-medium ${result.ok ? 'text-foreground' : 'text-destructive'}`}>
        {result.ok ? (
          <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-700 dark:text-emerald-400" />
        ) : (
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        )}
        {result.ok ? 'Every item in DynamoDB matches the source.' : `${verificationFailureMessage(result)}.`}
      </p>
      {/* A data table keeps its columns; on the narrowest phones it scrolls inside this region (WCAG 1.4.10). */}
      <div
        role="region"
        aria-label="Items per kind"
        tabIndex={0}
        className="overflow-x-auto rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      >
        <table className="w-full min-w-64 max-w-3xl text-left text-xs tabular-nums sm:text-sm">
          <caption className="sr-only">Items per kind of data in {database} and in DynamoDB</caption>
          <thead>
            <tr className="border-b border-border text-muted-foreground">
              <th scope="col" className="py-2 pr-2 font-medium">
                Data
              </th>
              <th scope="col" className="px-2 py-2 text-right font-medium">
                {database}
              </th>
              <th scope="col" className="px-2 py-2 text-right font-medium">
                DynamoDB
              </th>
              <th scope="col" className="py-2 pl-2 text-right font-medium">
                Mismatches
              </th>
            </tr>
          </thead>
          <tbody>
            {result.kinds.map((k) => (
              <tr key={k.kind} className="border-b border-border last:border-0" data-kind={k.kind}>
                <th scope="row" className="py-2 pr-2 font-normal text-foreground">
                  {k.label}
                </th>
                <td className="px-2 py-2 text-right">{k.source.toLocaleString('en-US')}</td>
                <td className="px-2 py-2 text-right">{k.target.toLocaleString('en-US')}</td>
                <td className={`py-2 pl-2 text-right ${k.mismatches > 0 ? 'font-semibold text-destructive' : ''}`}>{k.mismatches.toLocaleString('en-US')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {result.mismatches.length > 0 && (
        <div className="space-y-2">
          <h3 className="text-base font-semibold text-foreground">Mismatches</h3>
          {result.mismatches.length < total && (
            <p className="text-sm text-muted-foreground">
              Showing the first {plural(result.mismatches.length, 'mismatch', 'mismatches')} of {total.toLocaleString('en-US')}.
            </p>
          )}
          <ul className="max-h-96 space-y-2 overflow-y-auto text-sm" data-testid="mismatches" tabIndex={0} aria-label="Mismatches">
            {result.mismatches.map((m) => (
              <li key={`${m.kind}:${m.id}:${m.problem}`} className="rounded-md border border-border p-2 text-foreground">
                <span className="font-medium">{kindLabel(m.kind)}</span> <code className="break-all font-mono text-xs">{m.id}</code>: {m.problem}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
