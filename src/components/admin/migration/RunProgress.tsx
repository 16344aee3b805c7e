/**
 * A migration run's progress: all data, then per kind, each a progress bar with its
 * 'done / total' beside it. The bars are not live regions (they change twice a second); the run's
 * state is, and changes only when the run starts or stops.
 */
import { Badge } from '../../ui/card.tsx';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';
import type { MigrationRun } from './migration-api.ts';
import { percentDone, progressText, runStateLabels, runTotals } from './migration-wizard.ts';

const stateBadge = { running: 'default', completed: 'success', failed: 'destructive', interrupted: 'warning' } as const;

export default function RunProgress({ run }: { run: MigrationRun }) {
  const totals = runTotals(run);
  return (
    <div className="space-y-4" data-testid="migration-run" data-state={run.state}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <p role="status" className="flex items-center gap-2 font-medium text-foreground">
          Last run:
          <Badge variant={stateBadge[run.state]}>{runStateLabels[run.state]}</Badge>
        </p>
        <p className="text-muted-foreground">
          Started {formatFirmDateTime(run.startedAt)}
          {run.finishedAt && <>; ended {formatFirmDateTime(run.finishedAt)}</>}
        </p>
      </div>
      {run.error && run.state !== 'completed' && (
        <p className="rounded-md border border-destructive p-3 text-sm font-medium text-destructive" data-testid="run-error">
          {run.error}
        </p>
      )}
      <ProgressRow id={`run-${run.id}-all`} label="All data" done={totals.done} total={totals.total} strong />
      <ul aria-label="Progress per kind of data" className="grid gap-x-6 gap-y-3 md:grid-cols-2">
        {run.kinds.map((k) => (
          <li key={k.kind}>
            <ProgressRow id={`run-${run.id}-${k.kind}`} label={k.label} done={k.done} total={k.total} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function ProgressRow({ id, label, done, total, strong = false }: { id: string; label: string; done: number; total: number; strong?: boolean }) {
  const labelId = `${id}-label`;
  return (
    <div className="space-y-1" data-testid="progress" data-kind-label={label}>
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span id={labelId} className={strong ? 'font-semibold text-foreground' : 'text-foreground'}>
          {label}
        </span>
        <span className="tabular-nums text-muted-foreground" data-testid="progress-text">
          {progressText({ done, total })}
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`}
        className={`overflow-hidden rounded-full border border-border bg-muted ${strong ? 'h-3' : 'h-2'}`}
      >
        <div className="h-full bg-primary motion-safe:transition-[width]" style={{ width: `${percentDone({ done, total })}%` }} />
      </div>
    </div>
  );
}
