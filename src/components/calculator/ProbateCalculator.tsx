/**
 * Probate versus living trust cost calculator (SPEC §4 Calculator, §5 Calculator, §7 POST
 * /api/probate-calculator, §8, §9). A placeholder until the first calculation, then the figures of
 * the firm's schedule (src/shared/probate.ts). Saved only when an email is given.
 *
 * SPEC §8's messages ('Invalid Input', 'Calculation Saved', 'Save Failed') are said under the button,
 * in their words, not in a toast: a toast on a phone covered the totals it had just produced (issue
 * 18; docs/decisions/025). The page needs no Toaster for it.
 */
import { ArrowRight, Calculator, LoaderCircle, PiggyBank } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode, type Ref, type RefObject } from 'react';
import { api, read, submissionKey } from '../../lib/api-client.ts';
import { probateFeeSchedule } from '../../config/probate.ts';
import { feeBreakdown, formatUsd, livingTrust, type ProbateEstimate } from '../../shared/probate.ts';
import { buttonClass } from '../ui/button-class.ts';
import { Field, Input, RequiredFieldsNote } from '../ui/form.tsx';
import { Honeypot, honeypotOf } from '../ui/Honeypot.tsx';
import { typedBeforeHydration } from '../ui/typed-before-hydration.ts';
import { applyAmountEdit } from './amount-input.ts';
import { estimateFromFields, INVALID_ESTATE_VALUE, type CalculatorErrors, type CalculatorFields } from './calculation.ts';

/** The payload check needs zod: fetched only once an email is typed (or on submit with one). */
let payloadModule: Promise<typeof import('./calculation-payload.ts')> | undefined;
const loadPayloadModule = () =>
  (payloadModule ??= import('./calculation-payload.ts').catch((err) => {
    payloadModule = undefined; // a failed download may be retried
    throw err;
  }));

interface Props {
  /** Level of the calculator's own heading: 2 on a page with its own h1 (the default). */
  headingLevel?: 2 | 3;
}

/** SPEC §8's outcome of a calculation, said under the button. */
type Notice = { title: string; description: string; tone: 'done' | 'error' };
const notices = {
  invalid: { title: 'Invalid Input', description: INVALID_ESTATE_VALUE, tone: 'error' },
  saved: { title: 'Calculation Saved', description: 'Your probate calculation has been saved successfully.', tone: 'done' },
  failed: { title: 'Save Failed', description: 'Unable to save your calculation. Please try again.', tone: 'error' },
} as const satisfies Record<string, Notice>;

export default function ProbateCalculator({ headingLevel = 2 }: Props) {
  const id = useId();
  const [fields, setFields] = useState<CalculatorFields>({ estateValue: '', realEstateValue: '', email: '' });
  // What the visitor typed before this island hydrated is kept (read before React takes the fields over).
  const [typed] = useState(() => typedBeforeHydration(`${id}-form`));
  useLayoutEffect(() => {
    const amount = (raw: unknown) => (typeof raw === 'string' ? applyAmountEdit('', raw, raw.length, 'insertText').value : '');
    if (Object.keys(typed).length === 0) return;
    setFields((f) => ({
      estateValue: 'estateValue' in typed ? amount(typed.estateValue) : f.estateValue,
      realEstateValue: 'realEstateValue' in typed ? amount(typed.realEstateValue) : f.realEstateValue,
      email: typeof typed.email === 'string' ? typed.email : f.email,
    }));
  }, [typed]);
  const [errors, setErrors] = useState<CalculatorErrors>({});
  const [estimate, setEstimate] = useState<ProbateEstimate | null>(null);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  // Decision 016: saving again after a failure reuses the key, so a calculation stored before its answer was lost is not stored twice.
  const [submission] = useState(submissionKey);
  // Until React has taken over, a click would submit the form natively: the button waits for it.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const estateRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);

  const Heading = `h${headingLevel}` as const;
  const SubHeading = `h${headingLevel + 1}` as 'h3' | 'h4';

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    // Read before the first await (React clears currentTarget after the event).
    const trap = honeypotOf(event.currentTarget);
    const outcome = estimateFromFields(fields);
    setNotice(null);
    if (!outcome.ok) {
      setErrors(outcome.errors);
      setNotice(notices.invalid);
      estateRef.current?.focus();
      return;
    }
    if (!fields.email.trim()) {
      // SPEC §5: saved only when an email is given; nothing is sent.
      setErrors({});
      setEstimate(outcome.estimate);
      return;
    }
    setSaving(true);
    try {
      const checked = (await loadPayloadModule()).calculationPayload(outcome.estimate, fields.email);
      if (!checked.ok) {
        setErrors(checked.errors);
        (checked.errors.email ? emailRef : estateRef).current?.focus();
        return;
      }
      setErrors({});
      setEstimate(outcome.estimate);
      const body = { ...checked.payload, ...trap };
      await read(api['probate-calculator'].$post({ json: body }, { headers: { 'Idempotency-Key': submission.for(body) } }));
      submission.succeeded();
      setNotice(notices.saved);
    } catch {
      setEstimate(outcome.estimate);
      setNotice(notices.failed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section
      data-component="probate_calculator"
      aria-labelledby={`${id}-title`}
      className="rounded-xl border border-border bg-card text-card-foreground p-4 shadow-sm sm:p-6"
    >
      <div className="mb-6 flex items-start gap-3">
        <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-muted text-primary">
          <Calculator aria-hidden="true" className="size-5" />
        </span>
        <div>
          <Heading id={`${id}-title`} className="text-xl font-bold sm:text-2xl">
            Probate vs. Living Trust Cost Calculator
          </Heading>
          <p className="mt-1 text-sm text-muted-foreground">Compare what probate may cost your family with the cost of a living trust.</p>
        </div>
      </div>

      <div className="grid gap-6 md:grid-cols-2">
        <form id={`${id}-form`} noValidate onSubmit={onSubmit} aria-label="Estate details" className="space-y-4">
          <RequiredFieldsNote />
          <AmountField
            ref={estateRef}
            name="estateValue"
            label="Estate Value"
            required
            value={fields.estateValue}
            onValue={(estateValue) => setFields((f) => ({ ...f, estateValue }))}
            hint="The total value of everything you own: home, accounts, investments, vehicles."
            error={errors.estateValue}
          />
          <AmountField
            name="realEstateValue"
            label="Real Estate Value"
            value={fields.realEstateValue}
            onValue={(realEstateValue) => setFields((f) => ({ ...f, realEstateValue }))}
            hint="Optional: the part of the estate that is real estate."
          />
          <Field label="Email" hint="Optional: enter your email to save this estimate. Without one, nothing is saved." error={errors.email}>
            <Input
              ref={emailRef}
              name="email"
              size="lg"
              type="email"
              autoComplete="email"
              spellCheck={false}
              value={fields.email}
              onChange={(e) => {
                const email = e.target.value;
                setFields((f) => ({ ...f, email }));
                if (email) void loadPayloadModule().catch(() => undefined);
              }}
            />
          </Field>
          <Honeypot />
          <button type="submit" disabled={!ready || saving} aria-busy={saving || undefined} className={buttonClass('default', 'lg', 'w-full')}>
            {saving ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Calculator aria-hidden="true" className="size-4" />}
            {saving ? 'Saving...' : 'Calculate Costs'}
          </button>
          {/* The status region is always in the page, so a screen reader hears what is put in it; an alert is heard as it comes. */}
          <div role="status">
            {notice?.tone === 'done' && (
              <p className="rounded-md border border-border bg-muted p-3 text-sm">
                <strong>{notice.title}.</strong> {notice.description}
              </p>
            )}
          </div>
          {notice?.tone === 'error' && (
            <p role="alert" className="rounded-md border border-destructive p-3 text-sm font-medium text-destructive">
              <strong>{notice.title}.</strong> {notice.description}
            </p>
          )}
        </form>

        <div className="rounded-lg bg-muted p-4 sm:p-5">
          {/* SPEC: results announced politely; a short summary, not the whole table. */}
          <p role="status" aria-live="polite" className="sr-only">
            {estimate
              ? `Estimated probate costs ${formatUsd(estimate.totalProbate)}. Living trust ${formatUsd(estimate.trustCost)}. Potential savings ${formatUsd(estimate.savings)}.`
              : ''}
          </p>
          {estimate ? <Results estimate={estimate} Heading={SubHeading} /> : <Placeholder />}
        </div>
      </div>
    </section>
  );
}

function Placeholder() {
  return (
    <div data-testid="calculator-placeholder" className="flex h-full min-h-48 flex-col items-center justify-center gap-3 text-center text-muted-foreground">
      <PiggyBank aria-hidden="true" className="size-10" />
      <p className="max-w-xs text-sm">
        Enter your estate value and select Calculate Costs to see your estimated probate costs and what a living trust could save.
      </p>
    </div>
  );
}

function Results({ estimate, Heading }: { estimate: ProbateEstimate; Heading: 'h3' | 'h4' }) {
  return (
    <div data-testid="calculator-results" className="space-y-5">
      <div>
        <Heading className="font-semibold">Estimated Probate Costs</Heading>
        <p className="text-sm text-muted-foreground">
          For an estate of {formatUsd(estimate.estateValue)}
          {estimate.realEstateValue > 0 ? `, including ${formatUsd(estimate.realEstateValue)} of real estate` : ''}.
        </p>
        <dl className="mt-2 divide-y divide-border text-sm">
          <Row label="Attorney Fees" value={estimate.attorneyFees} />
          <Row label="Executor Fees" value={estimate.executorFees} />
          <Row label="Court Costs" value={estimate.courtCosts} />
          <Row label="Total Probate Costs" value={estimate.totalProbate} strong />
        </dl>
      </div>
      <div>
        <Heading className="font-semibold">Living Trust Cost</Heading>
        <dl className="mt-2 divide-y divide-border text-sm">
          <Row label="Trust Preparation" value={livingTrust.preparation} />
          <Row label="Funding Services" value={livingTrust.funding} />
          <Row label="Total Living Trust Cost" value={estimate.trustCost} strong />
        </dl>
      </div>
      <div className="rounded-md border-2 border-primary bg-background p-4">
        <dl>
          <dt className="text-sm font-medium">Potential Savings</dt>
          <dd data-figure="savings" className="text-2xl font-bold text-primary sm:text-3xl">
            {formatUsd(estimate.savings)}
          </dd>
        </dl>
      </div>
      <FeeBreakdown estimate={estimate} />
      <div className="space-y-1 text-sm text-muted-foreground">
        <p className="font-semibold text-foreground">Estimate only, not legal advice.</p>
        <p>
          These figures use {probateFeeSchedule.name}
          {probateFeeSchedule.id === 'spec' ? ', not the statutory schedule of the California Probate Code, whose fees differ' : ''}. Actual costs depend on
          your estate and the court.
        </p>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <LinkButton href="/contact?service=estate-planning" primary>
          Start Your Estate Plan
          <ArrowRight aria-hidden="true" className="size-4" />
        </LinkButton>
        <LinkButton href="/practice-areas/estate-planning">Learn About Estate Planning</LinkButton>
      </div>
    </div>
  );
}

/** How the attorney's fee was figured, band by band (the executor's is the same). */
function FeeBreakdown({ estimate }: { estimate: ProbateEstimate }) {
  const bands = feeBreakdown(estimate.estateValue, probateFeeSchedule);
  const percent = (rate: number) => `${Number((rate * 100).toFixed(2))}%`;
  return (
    <details className="rounded-md border border-border bg-background p-3 text-sm">
      <summary className="cursor-pointer font-medium">How the attorney fee is figured</summary>
      <table className="mt-3 w-full">
        <caption className="sr-only">The attorney fee by band of the estate's value</caption>
        <thead className="text-left text-muted-foreground">
          <tr>
            <th scope="col" className="py-1 font-medium">
              Part of the estate
            </th>
            <th scope="col" className="py-1 font-medium">
              Rate
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Fee
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {bands.map((band) => (
            <tr key={band.from}>
              <td className="py-1">
                {formatUsd(band.from)} to {formatUsd(band.to)}
              </td>
              <td className="py-1">{band.rate === null ? 'Set by the court' : percent(band.rate)}</td>
              <td className="py-1 text-right tabular-nums">{band.amount === null ? 'Set by the court' : formatUsd(band.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {estimate.courtDecidesAbove !== undefined && (
        <p className="mt-2 text-muted-foreground">
          Above {formatUsd(estimate.courtDecidesAbove)} the court decides a reasonable fee: the figures here leave that part out.
        </p>
      )}
    </details>
  );
}

function Row({ label, value, strong = false }: { label: string; value: number; strong?: boolean }) {
  return (
    <div className={`flex items-baseline justify-between gap-4 py-1.5 ${strong ? 'font-semibold' : ''}`}>
      <dt>{label}</dt>
      <dd className="tabular-nums">{formatUsd(value)}</dd>
    </div>
  );
}

function LinkButton({ href, primary = false, children }: { href: string; primary?: boolean; children: ReactNode }) {
  return (
    <a href={href} className={buttonClass(primary ? 'default' : 'outline', 'lg')}>
      {children}
    </a>
  );
}

interface FieldProps {
  label: string;
  required?: boolean;
  hint?: string;
  error?: string;
}

/**
 * An amount with thousands separators added while typing; the caret stays after the digit it
 * followed (src/components/calculator/amount-input.ts).
 */
function AmountField({
  ref,
  name,
  value,
  onValue,
  ...field
}: FieldProps & { ref?: Ref<HTMLInputElement>; name: string; value: string; onValue: (value: string) => void }) {
  const inner = useRef<HTMLInputElement | null>(null);
  const caret = useRef<number | null>(null);

  useLayoutEffect(() => {
    const input = inner.current;
    if (caret.current === null || !input || document.activeElement !== input) return;
    input.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  });

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const inputType = (event.nativeEvent as InputEvent).inputType;
    const next = applyAmountEdit(value, input.value, input.selectionStart ?? input.value.length, inputType);
    caret.current = next.caret;
    if (next.value === value) {
      // Nothing kept (a letter typed): React will not re-render, so put the text and caret back now.
      input.value = value;
      input.setSelectionRange(next.caret, next.caret);
      caret.current = null;
    }
    onValue(next.value);
  };

  return (
    <Field {...field}>
      {(control) => (
        <div className="relative">
          <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-muted-foreground">
            $
          </span>
          <Input
            {...control}
            size="lg"
            ref={(node) => {
              inner.current = node;
              if (typeof ref === 'function') ref(node);
              else if (ref) (ref as RefObject<HTMLInputElement | null>).current = node;
            }}
            name={name}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            placeholder="0"
            value={value}
            onChange={onChange}
            className="pl-7 tabular-nums"
          />
        </div>
      )}
    </Field>
  );
}
