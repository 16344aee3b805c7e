/**
 * The booking modal (SPEC §2 Booking modal, §4 Booking modal, §5 Booking form, §7 POST
 * /api/appointments, §8 booking toasts): step 1 type, date and time; step 2 the visitor's details;
 * step 3 the confirmation with Book Another and Done. A Radix dialog (the one way to open a dialog):
 * focus is trapped inside and returned to the button that opened it, Escape closes, the title and
 * the step's description label it. Closing keeps the choices for the next opening, except after a
 * booking, which starts clean.
 *
 * A lost race for a time (409) or a time the server refuses (400 on scheduledDate) returns to step 1
 * with the time cleared, the server's message shown and the day's availability fetched again; what
 * was typed in step 2 is kept.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { ArrowLeft, CalendarCheck, CalendarDays, Check, LoaderCircle, X } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type BaseSyntheticEvent, type FormEvent } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { api, read, submissionKey } from '../../lib/api-client.ts';
import { firmInstant, whenLabel, type FirmDate } from '../../shared/firm-time.ts';
import type { ConsultationType } from '../../shared/constants.ts';
import { buttonClass } from '../ui/button-class.ts';
import { honeypotOf } from '../ui/Honeypot.tsx';
import type { ReturnFocus } from '../ui/return-focus.ts';
import type { BookingFormOutput } from './booking-form.schema.ts';
import {
  bookedConsultation,
  bookingFailure,
  bookingOutcomes,
  canContinue,
  consultationTypeOptions,
  emptyBookingForm,
  emptyChoice,
  scheduledDateOf,
  toAppointmentPayload,
  type BookedConsultation,
  type BookingChoice,
  type BookingFormValues,
} from './booking-form.ts';
import { calendarRange, firstSelectableDay } from './calendar.ts';
import DetailsStep from './DetailsStep.tsx';
import BookingFacts from './BookingFacts.tsx';
import ScheduleStep, { type CalendarState } from './ScheduleStep.tsx';
import { useAvailability } from './use-availability.ts';
import { useBookingRules } from './use-booking-rules.ts';

/** The validation (zod) is fetched as soon as the modal opens, and awaited at the latest on submit. */
let schemaModule: Promise<typeof import('./booking-form.schema.ts')> | undefined;
const loadSchema = () =>
  (schemaModule ??= import('./booking-form.schema.ts').catch((err: unknown) => {
    schemaModule = undefined; // a failed download may be retried
    throw err;
  }));

const LOAD_FAILED = 'The form could not be checked. Please check your connection and try again, or call us.';

const resolver: Resolver<BookingFormValues, unknown, BookingFormOutput> = async (values, context, options) => {
  try {
    return await (await loadSchema()).bookingFormResolver(values, context, options);
  } catch {
    return { values: {}, errors: { root: { type: 'load', message: LOAD_FAILED } } };
  }
};

const TIME_NO_LONGER_FREE = 'The time you chose is not free for this consultation. Please choose another time.';
/** SPEC §8 'Missing Information', said where the date and time are chosen. */
const missingMessage = `${bookingOutcomes.missing.title}. ${bookingOutcomes.missing.description}`;

type Step = 1 | 2 | 3;

const stepDescriptions: Record<Step, string> = {
  1: 'Step 1 of 3: choose a consultation type, a date and a time.',
  2: 'Step 2 of 3: your contact details.',
  3: 'Step 3 of 3: your consultation is booked.',
};
const stepNames = ['Date & time', 'Your details', 'Confirmation'] as const;

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where the focus goes back on close (the button that opened the modal), if anywhere. */
  returnFocus: ReturnFocus;
}

export default function BookingModal({ open, onOpenChange, returnFocus }: Props) {
  const formId = useId();
  const [step, setStep] = useState<Step>(1);
  const [choice, setChoice] = useState<BookingChoice>(emptyChoice);
  const [timeMessage, setTimeMessage] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(0);
  const [booked, setBooked] = useState<BookedConsultation | null>(null);
  const form = useForm<BookingFormValues, unknown, BookingFormOutput>({ resolver, defaultValues: emptyBookingForm() });
  // Decision 016: booking again after a failure reuses the key, so a booking stored before its answer was lost is not made twice.
  const [submission] = useState(submissionKey);
  const availability = useAvailability(choice.date, choice.consultationType, refresh);
  // The firm's rules, asked again with the slots (each opening, a retry, a refused time).
  const bookingRules = useBookingRules(refresh);

  // The firm's today and the picker's range, taken afresh at each opening (a page may stay open overnight).
  // biome-ignore lint/correctness/useExhaustiveDependencies: each opening (`open`) takes a new "now"
  const calendar = useMemo((): CalendarState => {
    if (bookingRules.status !== 'ready') return bookingRules;
    const { rules } = bookingRules;
    const now = new Date();
    return { status: 'ready', now, ...calendarRange(now, rules), initial: firstSelectableDay(now, rules), rules };
    // `open` is not read: each opening takes a new "now".
  }, [open, bookingRules]);

  const stepHeading = useRef<HTMLHeadingElement>(null);
  const timeMessageRef = useRef<HTMLParagraphElement>(null);
  const focusOnStep = useRef<'heading' | 'first-field' | 'time-message' | null>(null);

  useEffect(() => {
    if (!open) return;
    void loadSchema().catch(() => undefined);
    // Opening again after a while: the day's slots may have been taken meanwhile.
    setRefresh((n) => n + 1);
  }, [open]);

  // After a step change, the focus goes where the new step starts (the dialog keeps it inside). A
  // layout effect moves it in the same task as the new step appears: with a passive effect, a Tab
  // pressed in between on a busy phone went from the button that had just gone (issue 18's CI).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each step or time message change, which is when the focus has to move
  useLayoutEffect(() => {
    const target = focusOnStep.current;
    focusOnStep.current = null;
    if (target === 'heading') stepHeading.current?.focus();
    else if (target === 'time-message') (timeMessageRef.current ?? stepHeading.current)?.focus();
    else if (target === 'first-field') form.setFocus('firstName');
  }, [step, timeMessage, form]);

  // A slot that the new type's length (or a refresh) makes unavailable is no longer chosen, and the
  // visitor is told so (a radio that silently unchecks itself is easy to miss).
  useEffect(() => {
    if (availability.status !== 'ready' || !choice.time || availability.day.date !== choice.date) return;
    const slot = availability.day.slots.find((s) => s.time === choice.time);
    if (slot?.available) return;
    setChoice((c) => ({ ...c, time: null }));
    setTimeMessage(TIME_NO_LONGER_FREE);
  }, [availability, choice.date, choice.time]);

  const goTo = (next: Step, focus: NonNullable<typeof focusOnStep.current>) => {
    focusOnStep.current = focus;
    setStep(next);
  };

  const reset = () => {
    setChoice(emptyChoice());
    setTimeMessage(null);
    setBooked(null);
    form.reset(emptyBookingForm());
    setStep(1);
  };

  const onOpenChange_ = (next: boolean) => {
    // A finished booking is not shown again: the next opening starts clean.
    if (!next && step === 3) reset();
    onOpenChange(next);
  };

  const submit = async (values: BookingFormOutput, event?: BaseSyntheticEvent) => {
    try {
      // The details step's honeypot goes along only if something filled it in.
      const body = { ...toAppointmentPayload(values), ...honeypotOf(event?.target) };
      const created = await read(api.appointments.$post({ json: body }, { headers: { 'Idempotency-Key': submission.for(body) } }));
      submission.succeeded();
      setBooked(bookedConsultation(created, values));
      // SPEC §8's success message is the confirmation step's own heading: a toast over the dialog
      // covered Book Another and Done on a phone, and took the first Escape (issue 18).
      goTo(3, 'heading');
    } catch (err) {
      // SPEC §8: a booking failure is also logged to the console.
      console.error('Booking failed:', err);
      const failure = bookingFailure(err);
      // Every failure is said inside the dialog, in SPEC §8's words, next to what the visitor does next.
      if (failure.kind === 'time') {
        setChoice((c) => ({ ...c, time: null }));
        setTimeMessage(`${bookingOutcomes.failure.title}. ${failure.message}`);
        setRefresh((n) => n + 1);
        goTo(1, 'time-message');
        return;
      }
      if (failure.kind === 'fields') failure.fields.forEach(([name, message], i) => form.setError(name, { message }, { shouldFocus: i === 0 }));
      else form.setError('root', { message: `${bookingOutcomes.failure.title}. ${bookingOutcomes.failure.description}` });
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const scheduledDate = scheduledDateOf(choice);
    // SPEC §5. Continue waits for a date and time, but a time can still go while step 2 is open: the
    // modal closed and opened again finds it taken meanwhile (the check above clears it).
    if (!scheduledDate || !choice.consultationType) {
      setTimeMessage(missingMessage);
      goTo(1, 'time-message');
      return;
    }
    form.setValue('consultationType', choice.consultationType);
    form.setValue('scheduledDate', scheduledDate);
    void form.handleSubmit(submit, (errors) => {
      if (errors.scheduledDate || errors.consultationType) {
        setTimeMessage(missingMessage);
        goTo(1, 'time-message');
      }
    })(event);
  };

  const chooseType = (consultationType: ConsultationType) => {
    if (timeMessage === TIME_NO_LONGER_FREE) setTimeMessage(null);
    setChoice((c) => ({ ...c, consultationType }));
  };
  const chooseDate = (date: FirmDate) => {
    setTimeMessage(null);
    setChoice((c) => (c.date === date ? c : { ...c, date, time: null }));
  };
  const chooseTime = (time: string) => {
    setTimeMessage(null);
    setChoice((c) => ({ ...c, time }));
  };

  const pending = form.formState.isSubmitting;
  const typeLabel = consultationTypeOptions.find((t) => t.value === choice.consultationType)?.label;
  const ready = canContinue(choice) && availability.status === 'ready';
  const primary = buttonClass('default', 'lg');
  const secondary = buttonClass('outline', 'lg', 'sm:mr-auto');
  const continueHint = `${formId}-continue-hint`;

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange_}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60 motion-safe:transition-opacity motion-safe:starting:opacity-0" />
        <Dialog.Content
          data-booking-modal=""
          // Radix would return the focus to a Dialog.Trigger; the modal is opened by the page's buttons instead.
          onCloseAutoFocus={(event) => returnFocus.restore(event)}
          // A phone gets the whole screen (the body scrolls, the buttons stay at the bottom). Wider screens get
          // a panel near the top that leaves the bottom right free for the toasts, so they never cover its buttons.
          className="fixed inset-0 z-50 flex flex-col bg-background text-foreground shadow-xl sm:inset-auto sm:left-1/2 sm:top-[5dvh] sm:max-h-[calc(90dvh-6rem)] sm:w-[min(52rem,calc(100vw-2rem))] sm:-translate-x-1/2 sm:rounded-xl sm:border sm:border-border motion-safe:transition-opacity motion-safe:starting:opacity-0"
        >
          <div className="flex items-start gap-4 border-b border-border px-4 py-3 sm:px-6 sm:py-4">
            <div className="min-w-0 flex-1">
              <Dialog.Title className="text-lg font-bold sm:text-xl">Schedule a Consultation</Dialog.Title>
              <Dialog.Description className="text-sm text-muted-foreground">{stepDescriptions[step]}</Dialog.Description>
            </div>
            <Dialog.Close className="-mr-2 inline-flex size-11 shrink-0 items-center justify-center rounded-md hover:bg-accent hover:text-accent-foreground">
              <X aria-hidden="true" className="size-5" />
              <span className="sr-only">Close</span>
            </Dialog.Close>
          </div>

          <ol aria-label="Steps" className="flex gap-2 border-b border-border px-4 py-2 text-xs sm:px-6 sm:text-sm">
            {stepNames.map((name, i) => {
              const n = (i + 1) as Step;
              return (
                <li
                  key={name}
                  aria-current={n === step ? 'step' : undefined}
                  className={`flex items-center gap-1.5 ${n === step ? 'font-semibold text-foreground' : 'text-muted-foreground'}`}
                >
                  <span
                    aria-hidden="true"
                    className={`inline-flex size-6 items-center justify-center rounded-full border text-xs ${n < step ? 'border-primary bg-primary text-primary-foreground' : n === step ? 'border-primary' : 'border-border'}`}
                  >
                    {n < step ? <Check className="size-3.5" /> : n}
                  </span>
                  <span className={n === step ? '' : 'max-sm:sr-only'}>{name}</span>
                  {n < step && <span className="sr-only">(done)</span>}
                </li>
              );
            })}
          </ol>

          {/* The scroll padding keeps a focused field's label in view above it. */}
          <div className="min-h-0 flex-1 scroll-pt-10 scroll-pb-4 overflow-y-auto px-4 py-4 sm:px-6">
            <h3 ref={stepHeading} tabIndex={-1} className="sr-only">
              {step === 1 ? 'Choose a consultation type, date and time' : step === 2 ? 'Your contact details' : 'Consultation scheduled'}
            </h3>
            {step === 1 && (
              <ScheduleStep
                choice={choice}
                onTypeChange={chooseType}
                onDateChange={chooseDate}
                onTimeChange={chooseTime}
                availability={availability}
                onRetry={() => setRefresh((n) => n + 1)}
                timeMessage={timeMessage}
                timeMessageRef={timeMessageRef}
                calendar={calendar}
              />
            )}
            {step === 2 && (
              <DetailsStep
                formId={formId}
                register={form.register}
                errors={form.formState.errors}
                onSubmit={onSubmit}
                summary={
                  choice.date && choice.time && typeLabel ? (
                    <div className="flex items-start gap-3 rounded-md border border-border bg-muted p-3 text-sm">
                      <CalendarDays aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-primary" />
                      <p>
                        <span className="font-semibold">{typeLabel}</span>
                        <br />
                        {whenLabel(firmInstant(choice.date, choice.time))}
                      </p>
                    </div>
                  ) : null
                }
              />
            )}
            {step === 2 && form.formState.errors.root?.message && (
              <p role="alert" className="mt-4 rounded-md border border-destructive p-3 text-sm font-medium text-destructive">
                {form.formState.errors.root.message}
              </p>
            )}
            {step === 3 && booked && <Confirmation booked={booked} />}
          </div>

          <div className="flex flex-col-reverse gap-2 border-t border-border px-4 py-3 sm:flex-row sm:items-center sm:justify-end sm:px-6">
            {step === 1 && (
              <>
                {!canContinue(choice) && (
                  <p id={continueHint} className="text-sm text-muted-foreground sm:mr-auto">
                    Choose a type, a date and a time to continue.
                  </p>
                )}
                <button
                  type="button"
                  className={primary}
                  disabled={!ready}
                  aria-describedby={canContinue(choice) ? undefined : continueHint}
                  onClick={() => goTo(2, 'first-field')}
                >
                  Continue
                </button>
              </>
            )}
            {step === 2 && (
              <>
                <button type="button" className={secondary} onClick={() => goTo(1, 'heading')} disabled={pending}>
                  <ArrowLeft aria-hidden="true" className="size-4" />
                  Back
                </button>
                <button type="submit" form={formId} className={primary} disabled={pending} aria-busy={pending || undefined}>
                  {pending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <CalendarCheck aria-hidden="true" className="size-4" />}
                  {pending ? 'Booking...' : 'Book Consultation'}
                </button>
              </>
            )}
            {step === 3 && (
              <>
                <button
                  type="button"
                  className={secondary}
                  onClick={() => {
                    reset();
                    focusOnStep.current = 'heading';
                  }}
                >
                  Book Another
                </button>
                <button type="button" className={primary} onClick={() => onOpenChange_(false)}>
                  Done
                </button>
              </>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function Confirmation({ booked }: { booked: BookedConsultation }) {
  const rows: [string, string][] = [
    ['Booking reference', booked.reference],
    ['Consultation', booked.type],
    ['Date', booked.date],
    ['Time', booked.localTime ? `${booked.time} (${booked.localTime})` : booked.time],
    ['Duration', booked.duration],
    ['Name', booked.name],
    ['Email', booked.email],
  ];
  return (
    <div className="space-y-4">
      <div className="flex items-start gap-3">
        <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-primary text-primary-foreground">
          <Check aria-hidden="true" className="size-5" />
        </span>
        <div>
          <p role="status" className="text-lg font-semibold">
            {bookingOutcomes.success.title}
          </p>
          <p className="text-sm text-muted-foreground">{bookingOutcomes.success.description}</p>
        </div>
      </div>
      <BookingFacts rows={rows} />
      <div>
        <p className="text-sm font-medium">Add it to your calendar</p>
        <ul className="mt-2 flex flex-wrap gap-2 text-sm">
          {(
            [
              ['Google Calendar', booked.calendarLinks.google],
              ['Outlook', booked.calendarLinks.outlook],
            ] as const
          ).map(([label, href]) => (
            <li key={label}>
              <a
                href={href}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex min-h-11 items-center rounded-md border border-border px-3 font-medium underline-offset-4 hover:underline"
              >
                {label}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </li>
          ))}
        </ul>
        <p className="mt-2 text-xs text-muted-foreground">The confirmation e-mail has a calendar file (.ics) for any other calendar.</p>
      </div>
      <p className="text-sm">
        Plans change?{' '}
        <a href={booked.manageHref} className="font-medium underline underline-offset-4">
          Reschedule or cancel online
        </a>{' '}
        until it starts: the same link is in your confirmation e-mail.
      </p>
    </div>
  );
}
