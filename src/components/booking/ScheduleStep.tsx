/**
 * Step 1 of the booking modal (SPEC §2, §5 Booking form, §9): the consultation type with its minutes,
 * the date, and the 13 time slots once a date is chosen, in the firm's zone and saying so. Taken and
 * past slots are shown, disabled and marked Unavailable (not by colour alone).
 */
import { CircleAlert, LoaderCircle, RotateCw } from 'lucide-react';
import { useId, type Ref } from 'react';
import type { BookingRules } from '../../shared/booking/rules.ts';
import { FIRM_TIME_ZONE_LABEL, longDateLabel, type FirmDate } from '../../shared/firm-time.ts';
import type { ConsultationType } from '../../shared/constants.ts';
import { consultationTypeOptions, type BookingChoice } from './booking-form.ts';
import DatePicker from './DatePicker.tsx';
import type { AvailabilityState } from './use-availability.ts';

interface Props {
  choice: BookingChoice;
  onTypeChange: (type: ConsultationType) => void;
  onDateChange: (date: FirmDate) => void;
  onTimeChange: (time: string) => void;
  availability: AvailabilityState;
  onRetry: () => void;
  /** Why the last attempt could not have its time (the server's 409 or 400 message). */
  timeMessage: string | null;
  timeMessageRef: Ref<HTMLParagraphElement>;
  /** The date picker's days, once the firm's rules are in (use-booking-rules.ts); onRetry asks again after a failure. */
  calendar: CalendarState;
  /** false where the type is already decided (a booking being moved): the choice is not shown. */
  chooseType?: boolean;
  /** A booking being moved: its present start (ISO), shown as such and not offered. */
  currentStart?: string;
  /** The level of the Date and Time headings (the modal's h4; a page's h3). */
  headingLevel?: 'h3' | 'h4';
}

export type CalendarState =
  | { status: 'ready'; now: Date; today: FirmDate; initial: FirmDate; min: FirmDate; max: FirmDate; rules: BookingRules }
  | { status: 'loading' }
  | { status: 'error' };

const retryButton = 'inline-flex min-h-11 items-center gap-2 rounded-md border border-border px-4 font-medium hover:bg-accent hover:text-accent-foreground';

const option =
  'flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent has-[:checked]:text-accent-foreground has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring';
const radio = 'size-4 shrink-0 accent-primary focus-visible:outline-none';

export default function ScheduleStep({
  choice,
  onTypeChange,
  onDateChange,
  onTimeChange,
  availability,
  onRetry,
  timeMessage,
  timeMessageRef,
  calendar,
  chooseType = true,
  currentStart,
  headingLevel: Heading = 'h4',
}: Props) {
  const id = useId();
  const day = availability.status === 'ready' ? availability.day : availability.status === 'loading' ? availability.previous : null;

  return (
    <div className="space-y-6">
      {chooseType && (
        <fieldset>
          <legend className="text-base font-semibold">Consultation type</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2 md:grid-cols-3">
            {consultationTypeOptions.map((t) => (
              <label key={t.value} className={option}>
                <input
                  type="radio"
                  name={`${id}-type`}
                  value={t.value}
                  checked={choice.consultationType === t.value}
                  onChange={() => onTypeChange(t.value)}
                  className={radio}
                />
                {t.label}
              </label>
            ))}
          </div>
        </fieldset>
      )}

      <div className="grid gap-6 md:grid-cols-[auto_1fr]">
        <div>
          <Heading id={`${id}-date`} className="text-base font-semibold">
            Date
          </Heading>
          <p className="text-sm text-muted-foreground">Weekdays only.</p>
          <div className="mt-2">
            {calendar.status === 'ready' ? (
              <DatePicker value={choice.date} onChange={onDateChange} labelledBy={`${id}-date`} {...calendar} />
            ) : calendar.status === 'error' ? (
              <div role="alert" className="w-full max-w-sm space-y-3 rounded-md border border-destructive p-3 text-sm">
                <p className="font-medium text-destructive">The calendar could not be loaded.</p>
                <button type="button" onClick={onRetry} className={retryButton}>
                  <RotateCw aria-hidden="true" className="size-4" />
                  Try Again
                </button>
              </div>
            ) : (
              <p className="flex w-full max-w-sm items-center gap-2 text-sm text-muted-foreground">
                <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
                Loading the calendar...
              </p>
            )}
          </div>
        </div>

        <div className="min-w-0">
          <Heading id={`${id}-time`} className="text-base font-semibold">
            Time
          </Heading>
          <p className="text-sm text-muted-foreground">Times are {FIRM_TIME_ZONE_LABEL}.</p>
          {timeMessage && (
            <p
              ref={timeMessageRef}
              tabIndex={-1}
              role="alert"
              className="mt-3 flex items-start gap-2 rounded-md border border-destructive p-3 text-sm font-medium text-destructive"
            >
              <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              {timeMessage}
            </p>
          )}
          <div className="mt-3" aria-live="polite">
            {!choice.date ? (
              <p className="rounded-md border border-dashed border-border p-4 text-sm text-muted-foreground">Choose a date to see the available times.</p>
            ) : availability.status === 'error' ? (
              <div className="space-y-3 rounded-md border border-destructive p-3 text-sm">
                <p className="font-medium text-destructive">The available times could not be loaded.</p>
                <button type="button" onClick={onRetry} className={retryButton}>
                  <RotateCw aria-hidden="true" className="size-4" />
                  Try Again
                </button>
              </div>
            ) : !day ? (
              <p className="flex items-center gap-2 text-sm text-muted-foreground">
                <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
                Loading available times...
              </p>
            ) : (
              <fieldset aria-busy={availability.status === 'loading' || undefined}>
                <legend className="text-sm font-medium">Available times for {longDateLabel(day.date)}</legend>
                {!day.slots.some((s) => s.available) && (
                  <p className="mt-2 text-sm">{day.message ?? 'No times are left on this day. Please choose another date.'}</p>
                )}
                <div className="mt-2 grid grid-cols-2 gap-2 min-[400px]:grid-cols-3">
                  {day.slots.map((slot) => {
                    const current = slot.startsAt === currentStart;
                    const available = slot.available && !current;
                    return (
                      <label
                        key={slot.time}
                        className={`${option} flex-wrap gap-x-2 gap-y-0 ${available ? '' : 'cursor-not-allowed border-dashed bg-muted text-muted-foreground'}`}
                      >
                        <input
                          type="radio"
                          name={`${id}-time`}
                          value={slot.time}
                          checked={choice.time === slot.time}
                          disabled={!available}
                          onChange={() => onTimeChange(slot.time)}
                          className={radio}
                        />
                        <span className={available || current ? 'font-medium' : 'line-through'}>{slot.label}</span>
                        {/* The space keeps "9:00 AM Unavailable" two words in the radio's accessible name. */}
                        {!available && <span className="w-full pl-7 text-xs"> {current ? 'Your current time' : 'Unavailable'}</span>}
                      </label>
                    );
                  })}
                </div>
              </fieldset>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
