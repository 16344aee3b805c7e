/**
 * One numbered step of the wizard (SPEC §2, §4): its number, title and whether it is completed, the
 * current step or pending, said in words (a badge, and aria-current on the current one), with the
 * border and the number's circle as a second cue only.
 */
import { Check } from 'lucide-react';
import { forwardRef, type ReactNode } from 'react';
import { Badge, Card } from '../../ui/card.tsx';
import { stepProgressLabels, type StepProgress } from './migration-wizard.ts';

const circle: Record<StepProgress, string> = {
  completed: 'border-emerald-700 bg-emerald-700 text-white',
  current: 'border-primary bg-primary text-primary-foreground',
  pending: 'border-border bg-background text-muted-foreground',
};

const badge = { completed: 'success', current: 'default', pending: 'outline' } as const;

export const WizardStepCard = forwardRef<
  HTMLHeadingElement,
  { number: number; title: string; progress: StepProgress; description: ReactNode; children?: ReactNode }
>(function WizardStepCard({ number, title, progress, description, children }, headingRef) {
  const headingId = `migration-step-${number}`;
  return (
    <li aria-current={progress === 'current' ? 'step' : undefined} data-testid={`step-${number}`} data-progress={progress}>
      <Card className={progress === 'current' ? 'border-2 border-primary' : ''}>
        {/* On a phone the step's content takes the card's whole width, under the number and title. */}
        <div className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-3 p-4 sm:gap-x-4 sm:p-6">
          <span aria-hidden="true" className={`flex size-9 shrink-0 items-center justify-center rounded-full border-2 text-sm font-bold ${circle[progress]}`}>
            {progress === 'completed' ? <Check className="size-4" strokeWidth={3} /> : number}
          </span>
          <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 self-center">
            <h2
              id={headingId}
              ref={headingRef}
              tabIndex={-1}
              className="text-lg font-semibold leading-tight focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            >
              <span className="sr-only">Step {number}: </span>
              {title}
            </h2>
            <Badge variant={badge[progress]} data-testid="step-progress">
              {stepProgressLabels[progress]}
            </Badge>
          </div>
          <div className="col-span-2 min-w-0 space-y-3 sm:col-span-1 sm:col-start-2">
            <div className="text-sm text-muted-foreground">{description}</div>
            {children}
          </div>
        </div>
      </Card>
    </li>
  );
});

/** Why a step's button cannot be pressed yet (a disabled button cannot be focused to ask). */
export function StepHint({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="text-sm text-muted-foreground">
      {children}
    </p>
  );
}
