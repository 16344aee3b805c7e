/**
 * A booking's own page (/manage-booking#<token>, issue 18 self-service): the consultation as booked,
 * and, until it starts, Cancel and Reschedule, as Cal.com offers an attendee. The token is read from
 * the address's fragment and sent in a header (never in a URL). What the page says happened is what
 * the server answered: a failure is said where the visitor acted, and nothing is shown as done before
 * the answer.
 */
import { CalendarClock, CalendarX, CircleAlert, CircleCheck, LoaderCircle, RotateCw } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { firm } from '../../config/firm.ts';
import { ApiError, api, read, type ApiData } from '../../lib/api-client.ts';
import { BOOKING_TOKEN_HEADER, selfServiceMessages, visitorTimeLabel } from '../../shared/booking/self-service.ts';
import { consultationTypeLabel, type ConsultationType } from '../../shared/constants.ts';
import {
  FIRM_TIME_ZONE,
  firmDateOf,
  firmInstant,
  firmTimeOf,
  longDateLabel,
  slotLabel,
  timeWithZoneLabel,
  whenLabel,
  type FirmDate,
} from '../../shared/firm-time.ts';
import { buttonClass } from '../ui/button-class.ts';
import { useFragment } from '../ui/use-fragment.ts';
import type { BookingChoice } from './booking-form.ts';
import { calendarRange } from './calendar.ts';
import BookingFacts from './BookingFacts.tsx';
import ScheduleStep, { type CalendarState } from './ScheduleStep.tsx';
import { type FetchDay, useAvailability } from './use-availability.ts';
import { useBookingRules } from './use-booking-rules.ts';

/** GET /api/appointments/manage's answer (dates as ISO text). */
type Managed = ApiData<typeof api.appointments.manage.$get>;

const headersOf = (token: string) => ({ headers: { [BOOKING_TOKEN_HEADER]: token } });
const load = (token: string) => read(api.appointments.manage.$get({}, headersOf(token)));

const statusLabels: Record<string, string> = { scheduled: 'Scheduled', confirmed: 'Confirmed', cancelled: 'Cancelled', completed: 'Completed' };
const NOT_SENT = 'Your change could not be sent. Please check your connection and try again.';

/** The server's sentence for a refusal, or null for a failure to reach it. */
const refusalOf = (err: unknown) => (err instanceof ApiError && err.status < 500 ? (err.details.error ?? null) : null);

type PageState = { status: 'loading' } | { status: 'ready'; booking: Managed } | { status: 'refused'; message: string } | { status: 'error' };

export default function ManageBooking() {
  // Read in the browser only (the page is prerendered): the fragment, again whenever it changes.
  const token = useFragment();
  const [state, setState] = useState<PageState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [mode, setMode] = useState<'view' | 'cancel' | 'reschedule'>('view');
  const [outcome, setOutcome] = useState<string | null>(null);
  const outcomeRef = useRef<HTMLParagraphElement>(null);

  // Another link opened in this page: it starts from its booking as it is.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `token` is the trigger
  useEffect(() => {
    setMode('view');
    setOutcome(null);
  }, [token]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the trigger to load again
  useEffect(() => {
    if (token === null) return;
    if (!token) {
      setState({ status: 'refused', message: selfServiceMessages.invalidLink });
      return;
    }
    let current = true;
    load(token).then(
      (booking) => current && setState({ status: 'ready', booking }),
      (err: unknown) => {
        if (!current) return;
        const message = refusalOf(err);
        setState(message ? { status: 'refused', message } : { status: 'error' });
      },
    );
    return () => {
      current = false;
    };
  }, [token, attempt]);

  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);

  const done = (booking: Managed, message: string) => {
    setState({ status: 'ready', booking });
    setMode('view');
    setOutcome(message);
  };

  if (state.status === 'loading' || token === null)
    return (
      <p role="status" className="flex items-center gap-2 text-muted-foreground">
        <LoaderCircle aria-hidden="true" className="size-5 animate-spin motion-reduce:animate-none" />
        Loading your consultation...
      </p>
    );
  if (state.status === 'error')
    return (
      <div role="alert" className="space-y-3 rounded-md border border-destructive p-4">
        <p className="font-medium">Your consultation could not be loaded. Please check your connection and try again.</p>
        <button type="button" className={buttonClass('outline', 'lg')} onClick={() => setAttempt((n) => n + 1)}>
          <RotateCw aria-hidden="true" className="size-4" />
          Try Again
        </button>
      </div>
    );
  if (state.status === 'refused')
    return (
      <p role="alert" className="flex items-start gap-2 rounded-md border border-destructive p-4 font-medium">
        <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-destructive" />
        {state.message}
      </p>
    );

  const { booking } = state;
  return (
    <div className="space-y-6">
      {outcome && (
        <p
          ref={outcomeRef}
          tabIndex={-1}
          role="status"
          className="flex items-start gap-2 rounded-md border border-primary bg-accent p-4 font-semibold text-accent-foreground"
        >
          <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          {outcome}
        </p>
      )}
      <BookingDetails booking={booking} />
      {!booking.changeable && !outcome && booking.reason && <p className="rounded-md border border-border bg-muted p-4">{booking.reason}</p>}
      {booking.status === 'cancelled' && (
        <a href="/contact" data-booking-trigger="" className={buttonClass('default', 'lg')}>
          Schedule a New Consultation
        </a>
      )}
      {booking.changeable && mode === 'view' && (
        <div className="flex flex-col gap-3 sm:flex-row">
          <button
            type="button"
            className={buttonClass('default', 'lg')}
            onClick={() => {
              setOutcome(null);
              setMode('reschedule');
            }}
          >
            <CalendarClock aria-hidden="true" className="size-4" />
            Reschedule
          </button>
          <button
            type="button"
            className={buttonClass('outline', 'lg')}
            onClick={() => {
              setOutcome(null);
              setMode('cancel');
            }}
          >
            <CalendarX aria-hidden="true" className="size-4" />
            Cancel Consultation
          </button>
        </div>
      )}
      {booking.changeable && mode === 'cancel' && (
        <CancelPanel
          token={token}
          booking={booking}
          onBack={() => setMode('view')}
          onDone={(next) => done(next, `Your consultation on ${whenLabel(new Date(booking.scheduledDate))} is cancelled.`)}
          onStale={() => setAttempt((n) => n + 1)}
        />
      )}
      {booking.changeable && mode === 'reschedule' && (
        <ReschedulePanel
          token={token}
          booking={booking}
          onBack={() => setMode('view')}
          onDone={(next) => done(next, `Your consultation is moved to ${whenLabel(new Date(next.scheduledDate))}.`)}
          onStale={() => setAttempt((n) => n + 1)}
        />
      )}
      <p className="text-sm text-muted-foreground">
        Questions? Call us at{' '}
        <a href={firm.phoneHref} className="font-medium text-foreground underline underline-offset-4">
          {firm.phone}
        </a>{' '}
        ({firm.hours.weekdays}).
      </p>
    </div>
  );
}

function BookingDetails({ booking }: { booking: Managed }) {
  const start = new Date(booking.scheduledDate);
  const local = visitorTimeLabel(start, Intl.DateTimeFormat().resolvedOptions().timeZone, FIRM_TIME_ZONE);
  const rows: [string, string][] = [
    ['Booking reference', booking.reference],
    ['Consultation', consultationTypeLabel(booking.consultationType)],
    ['Date', longDateLabel(start)],
    ['Time', local ? `${timeWithZoneLabel(start)} (${local})` : timeWithZoneLabel(start)],
    ['Duration', `${booking.duration} minutes`],
    ['Status', statusLabels[booking.status] ?? booking.status],
  ];
  return (
    <section aria-labelledby="booking-details">
      <h2 id="booking-details" className="text-xl font-semibold">
        {booking.firstName ? `${booking.firstName}, your consultation` : 'Your consultation'}
      </h2>
      <BookingFacts rows={rows} className="mt-3" />
    </section>
  );
}

interface PanelProps {
  token: string;
  booking: Managed;
  onBack: () => void;
  onDone: (booking: Managed) => void;
  /** The booking changed elsewhere (cancelled by the firm, started): load it again. */
  onStale: () => void;
}

function CancelPanel({ token, booking, onBack, onDone, onStale }: PanelProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const confirm = async () => {
    setPending(true);
    setError(null);
    try {
      onDone(await read(api.appointments.manage.cancel.$post({}, headersOf(token))));
    } catch (err) {
      const refusal = refusalOf(err);
      setError(refusal ?? NOT_SENT);
      if (refusal) onStale();
    } finally {
      setPending(false);
    }
  };

  return (
    <section aria-labelledby="cancel-heading" className="space-y-4 rounded-md border border-destructive p-4">
      <h2 id="cancel-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold">
        Cancel your consultation?
      </h2>
      <p>
        Your {consultationTypeLabel(booking.consultationType)} on {whenLabel(new Date(booking.scheduledDate))} will be cancelled and the time offered to others.
        This cannot be undone, but you are welcome to book again.
      </p>
      {error && (
        <p role="alert" className="flex items-start gap-2 font-medium text-destructive">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {error}
        </p>
      )}
      <div className="flex flex-col-reverse gap-3 sm:flex-row">
        <button type="button" className={buttonClass('outline', 'lg')} onClick={onBack} disabled={pending}>
          Keep My Consultation
        </button>
        <button type="button" className={buttonClass('destructive', 'lg')} onClick={confirm} disabled={pending} aria-busy={pending || undefined}>
          {pending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
          {pending ? 'Cancelling...' : 'Yes, Cancel It'}
        </button>
      </div>
    </section>
  );
}

function ReschedulePanel({ token, booking, onBack, onDone, onStale }: PanelProps) {
  const consultationType = booking.consultationType as ConsultationType;
  const currentStart = new Date(booking.scheduledDate).toISOString();
  const [choice, setChoice] = useState<BookingChoice>({ consultationType, date: firmDateOf(new Date(booking.scheduledDate)), time: null });
  const [refresh, setRefresh] = useState(0);
  const bookingRules = useBookingRules(refresh);
  const calendar = useMemo((): CalendarState => {
    if (bookingRules.status !== 'ready') return bookingRules;
    const now = new Date();
    return { status: 'ready', now, ...calendarRange(now, bookingRules.rules), initial: firmDateOf(new Date(booking.scheduledDate)), rules: bookingRules.rules };
  }, [booking.scheduledDate, bookingRules]);
  const [timeMessage, setTimeMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const timeMessageRef = useRef<HTMLParagraphElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const hintId = useId();
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    if (timeMessage) timeMessageRef.current?.focus();
  }, [timeMessage]);

  // The booking's own availability: its present time counts as free for itself.
  const fetchDay = useCallback<FetchDay>((date) => read(api.appointments.manage.availability.$get({ query: { date } }, headersOf(token))), [token]);
  const availability = useAvailability(choice.date, consultationType, refresh, fetchDay);

  const chosen = choice.date && choice.time ? firmInstant(choice.date, choice.time) : null;

  const move = async () => {
    if (!chosen) return;
    setPending(true);
    setTimeMessage(null);
    try {
      onDone(await read(api.appointments.manage.reschedule.$post({ json: { scheduledDate: chosen.toISOString() } }, headersOf(token))));
    } catch (err) {
      const refusal = refusalOf(err);
      setChoice((c) => ({ ...c, time: null }));
      setTimeMessage(refusal ?? NOT_SENT);
      setRefresh((n) => n + 1);
      // Refused for the booking itself (cancelled by the firm meanwhile, started): its page loads again.
      if (err instanceof ApiError && err.status === 409 && !err.details.fields) onStale();
    } finally {
      setPending(false);
    }
  };

  return (
    <section aria-labelledby="reschedule-heading" className="space-y-4 rounded-md border border-border p-4">
      <h2 id="reschedule-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold">
        Choose a new time
      </h2>
      <p className="text-sm text-muted-foreground">
        Your {consultationTypeLabel(booking.consultationType)} stays {booking.duration} minutes. It is now on {whenLabel(new Date(booking.scheduledDate))}.
      </p>
      <ScheduleStep
        choice={choice}
        onTypeChange={() => undefined}
        onDateChange={(date: FirmDate) => {
          setTimeMessage(null);
          setChoice((c) => (c.date === date ? c : { ...c, date, time: null }));
        }}
        onTimeChange={(time) => {
          setTimeMessage(null);
          setChoice((c) => ({ ...c, time }));
        }}
        availability={availability}
        onRetry={() => setRefresh((n) => n + 1)}
        timeMessage={timeMessage}
        timeMessageRef={timeMessageRef}
        calendar={calendar}
        chooseType={false}
        currentStart={currentStart}
        headingLevel="h3"
      />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center">
        <button type="button" className={buttonClass('outline', 'lg')} onClick={onBack} disabled={pending}>
          Keep the Current Time
        </button>
        {!chosen && (
          <p id={hintId} className="text-sm text-muted-foreground sm:order-last">
            Choose a date and a time to move your consultation.
          </p>
        )}
        <button
          type="button"
          className={buttonClass('default', 'lg')}
          onClick={move}
          disabled={!chosen || pending}
          aria-busy={pending || undefined}
          aria-describedby={chosen ? undefined : hintId}
        >
          {pending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
          {pending ? 'Moving...' : chosen ? `Move to ${longDateLabel(chosen)}, ${slotLabel(firmTimeOf(chosen))}` : 'Move Consultation'}
        </button>
      </div>
    </section>
  );
}
