/**
 * /admin/availability (issue 19, decision 032): when the firm takes consultations, edited on a screen
 * of its own. Weekly hours for each weekday (closed, one range, or two around a break), whether the
 * court holidays close the office, the minimum notice and the booking horizon, and the firm's own
 * closures (a first and last day, and the reason visitors read). A live summary says the whole in a
 * sentence. Nothing is sent until Save Changes (the bar appears with the first change; leaving the page
 * first makes the browser ask); the form is checked with the API's own schema, and the server's field
 * messages show beside the fields too. Appointments already booked stay where they are: said on screen.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import AboutCard from '../AboutCard.tsx';
import { CalendarPlus, LoaderCircle, Save, Scissors, Trash2, Undo2 } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { ApiError, api, read } from '../../../lib/api-client.ts';
import { firmToday } from '../../../shared/firm-time.ts';
import { type BookingRulesSettings, CLOSURE_REASON_MAX, hoursTimes, MAX_CLOSURES, weekdays, type WeekdayKey } from '../../../shared/schemas/booking-rules.ts';
import { slotLabel } from '../../../shared/firm-time.ts';
import AdminPage from '../AdminPage.tsx';
import { adminQueries, useAdminMutation } from '../admin-api.ts';
import { Button } from '../../ui/button.tsx';
import { Badge, Card, CardContent, CardHeader } from '../../ui/card.tsx';
import { Field, Input, Select, Switch } from '../../ui/form.tsx';
import { SaveFailed } from '../../ui/server-errors.tsx';
import { ErrorState, LoadingState } from '../../ui/states.tsx';
import {
  type AvailabilityDraft,
  availabilitySummary,
  draftErrors,
  draftOf,
  hasChanges,
  type Interval,
  intervalLabel,
  isPastClosure,
  messages,
  newClosureKey,
  openDay,
  payloadOf,
  withBreak,
} from './booking-rules.ts';

type Errors = Record<string, string>;
/** The id of the control a payload field is edited in ('hours.monday.0.start' -> 'availability-hours-monday-0-start'). */
const fieldId = (path: string) => `availability-${path.replaceAll('.', '-')}`;
const timeOptions = hoursTimes.map((t) => ({ value: t, label: slotLabel(t) }));

export default function BookingRulesScreen() {
  const queryClient = useQueryClient();
  const query = useQuery(adminQueries.bookingRules);
  const saved = useMemo(() => (query.data ? draftOf(query.data) : null), [query.data]);
  const [draft, setDraft] = useState<AvailabilityDraft | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const focusFirstError = useRef(false);
  const today = firmToday(new Date());

  // The form starts from what is stored, once; a later refetch does not overwrite what is being typed.
  useEffect(() => {
    if (saved && !draft) setDraft(saved);
  }, [saved, draft]);

  const dirty = !!draft && !!saved && hasChanges(draft, saved);

  // Leaving the page would lose unsaved changes: let the browser ask first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = ''; // older browsers ask only when this is set
    };
    window.addEventListener('beforeunload', warn);
    // The sticky bar must not cover the focused field (WCAG 2.2 focus not obscured).
    const root = document.documentElement;
    root.style.scrollPaddingBottom = '10rem';
    return () => {
      window.removeEventListener('beforeunload', warn);
      root.style.scrollPaddingBottom = '';
    };
  }, [dirty]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each new set of errors is on screen, which is when the focus moves
  useEffect(() => {
    if (!focusFirstError.current) return;
    focusFirstError.current = false;
    document.querySelector<HTMLElement>('[data-availability-form] [aria-invalid="true"]')?.focus();
  }, [errors]);

  const save = useAdminMutation<BookingRulesSettings, BookingRulesSettings>({
    mutationFn: (json) => read(api.admin['booking-rules'].$put({ json })),
    invalidates: [adminQueries.bookingRules.queryKey],
    success: messages.saved,
    failure: messages.failed,
    onSuccess: (stored) => {
      queryClient.setQueryData(adminQueries.bookingRules.queryKey, (old) => (old ? { ...old, ...stored } : old));
      setDraft(draftOf(stored));
      setErrors({});
    },
  });

  const update = (change: (d: AvailabilityDraft) => AvailabilityDraft) => setDraft((d) => (d ? change(d) : d));
  const setHours = (day: WeekdayKey, hours: Interval[]) => update((d) => ({ ...d, hours: { ...d.hours, [day]: hours } }));

  const submit = () => {
    if (!draft || save.isPending) return;
    const found = draftErrors(draft);
    focusFirstError.current = true;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(payloadOf(draft), {
      onError: (error) => {
        if (error instanceof ApiError && error.details.fields) {
          focusFirstError.current = true;
          setErrors(error.details.fields);
        }
      },
    });
  };

  const cancel = () => {
    if (saved) setDraft(saved);
    setErrors({});
  };

  let content;
  if (query.isPending) content = <LoadingState />;
  else if (query.isError || !draft) content = <ErrorState message="The availability could not be loaded." onRetry={() => void query.refetch()} />;
  else
    content = (
      <form
        noValidate
        data-availability-form
        className="space-y-6"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Card role="region" aria-labelledby="availability-summary-heading" className="border-primary">
          <CardHeader title={<span id="availability-summary-heading">In short</span>} />
          <CardContent>
            <p className="text-base" data-testid="availability-summary" aria-live="polite">
              {availabilitySummary(draft, today)}.
            </p>
          </CardContent>
        </Card>

        <Card>
          <CardHeader
            title="Weekly hours"
            description={`Consultations start on the booking calendar's times (${slotLabel('09:00')} to ${slotLabel('16:00')}, on the half hour) and must end within these hours. Saturdays and Sundays are never offered online.`}
          />
          <CardContent className="space-y-3">
            {weekdays.map((d) => (
              <WeekdayHours key={d.key} day={d} hours={draft.hours[d.key]} errors={errors} onChange={(hours) => setHours(d.key, hours)} />
            ))}
          </CardContent>
        </Card>

        <Card>
          <CardHeader title="Holidays, notice and horizon" />
          <CardContent className="space-y-5">
            <div className="space-y-1">
              <Switch
                id={fieldId('observeHolidays')}
                checked={draft.observeHolidays}
                onCheckedChange={(observeHolidays) => update((d) => ({ ...d, observeHolidays }))}
                label="Closed on court holidays"
              />
              <p className="text-xs text-muted-foreground">
                The federal holidays and California's court holidays (Lincoln's Birthday, Cesar Chavez Day, the day after Thanksgiving), each on the weekday it
                is observed.
              </p>
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Minimum notice (hours)" hint="How long before a consultation it can still be booked: 0 to 720." error={errors.minimumNoticeHours}>
                <Input
                  id={fieldId('minimumNoticeHours')}
                  inputMode="numeric"
                  autoComplete="off"
                  value={draft.minimumNoticeHours}
                  onChange={(e) => update((d) => ({ ...d, minimumNoticeHours: e.target.value }))}
                />
              </Field>
              <Field label="Booking horizon (days)" hint="How far ahead visitors may book: 1 to 730." error={errors.bookingHorizonDays}>
                <Input
                  id={fieldId('bookingHorizonDays')}
                  inputMode="numeric"
                  autoComplete="off"
                  value={draft.bookingHorizonDays}
                  onChange={(e) => update((d) => ({ ...d, bookingHorizonDays: e.target.value }))}
                />
              </Field>
            </div>
          </CardContent>
        </Card>

        <Closures draft={draft} errors={errors} today={today} onChange={(closures) => update((d) => ({ ...d, closures }))} />

        <AboutChanges />

        {/* Announced politely when there come to be unsaved changes (kept mounted so it is heard). */}
        <p role="status" className="sr-only">
          {dirty ? 'Unsaved changes' : ''}
        </p>
        {(dirty || save.error) && (
          <section aria-label="Unsaved changes" className="sticky bottom-3 z-10 space-y-3 rounded-lg border border-border bg-background p-3 shadow-lg sm:p-4">
            <SaveFailed error={save.error} message={messages.failed} />
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p aria-hidden="true" className="font-medium">
                Unsaved changes
              </p>
              <div className="flex flex-1 justify-end gap-2">
                <Button variant="outline" onClick={cancel} disabled={save.isPending}>
                  <Undo2 aria-hidden="true" className="size-4" />
                  Cancel
                </Button>
                <Button type="submit" aria-disabled={save.isPending || undefined} className="aria-disabled:cursor-wait aria-disabled:opacity-60">
                  {save.isPending ? (
                    <LoaderCircle aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />
                  ) : (
                    <Save aria-hidden="true" className="size-4" />
                  )}
                  {save.isPending ? 'Saving...' : 'Save Changes'}
                </Button>
              </div>
            </div>
          </section>
        )}
      </form>
    );

  return (
    <AdminPage title="Availability" description="When visitors can book a consultation on the website. Times are Pacific Time (San Diego).">
      {content}
    </AdminPage>
  );
}

function WeekdayHours({
  day,
  hours,
  errors,
  onChange,
}: {
  day: (typeof weekdays)[number];
  hours: Interval[];
  errors: Errors;
  onChange: (hours: Interval[]) => void;
}) {
  const open = hours.length > 0;
  const split = hours.length === 1 ? withBreak(hours[0]!) : null;
  const dayError = errors[`hours.${day.key}`];
  const state = open ? 'Open' : 'Closed';
  const set = (i: number, change: Partial<Interval>) => onChange(hours.map((h, j) => (j === i ? { ...h, ...change } : h)));
  return (
    <fieldset className="rounded-md border border-border p-3" data-weekday={day.key}>
      <legend className="px-1 text-sm font-semibold">{day.label}</legend>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Switch
          id={fieldId(`hours.${day.key}`)}
          checked={open}
          onCheckedChange={(on) => onChange(on ? openDay() : [])}
          label={state}
          aria-label={`${day.label}: ${state}`}
        />
        <p className="text-sm text-muted-foreground">{open ? hours.map(intervalLabel).join(' and ') : 'No consultations'}</p>
      </div>
      {dayError && <p className="mt-2 text-sm font-medium text-destructive">{dayError}</p>}
      {open && (
        <div className="mt-3 space-y-3">
          {hours.map((h, i) => {
            const which = hours.length > 1 ? (i === 0 ? ', before the break' : ', after the break') : '';
            const path = `hours.${day.key}.${i}`;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: a day's ranges are known by their place (before and after the break)
              <div key={i} className="grid grid-cols-2 gap-3">
                <Field
                  label={
                    <>
                      <span className="sr-only">
                        {day.label}
                        {which},{' '}
                      </span>
                      From
                    </>
                  }
                  error={errors[`${path}.start`]}
                >
                  <Select id={fieldId(`${path}.start`)} value={h.start} options={timeOptions} onChange={(e) => set(i, { start: e.target.value })} />
                </Field>
                <Field
                  label={
                    <>
                      <span className="sr-only">
                        {day.label}
                        {which},{' '}
                      </span>
                      Until
                    </>
                  }
                  error={errors[`${path}.end`]}
                >
                  <Select id={fieldId(`${path}.end`)} value={h.end} options={timeOptions} onChange={(e) => set(i, { end: e.target.value })} />
                </Field>
              </div>
            );
          })}
          {split && (
            <Button variant="outline" size="sm" className="h-10" onClick={() => onChange(split)}>
              <Scissors aria-hidden="true" className="size-4" />
              Add a Break<span className="sr-only"> on {day.label}</span>
            </Button>
          )}
          {hours.length === 2 && (
            <Button variant="outline" size="sm" className="h-10" onClick={() => onChange([{ start: hours[0]!.start, end: hours[1]!.end }])}>
              <Undo2 aria-hidden="true" className="size-4" />
              Remove the Break<span className="sr-only"> on {day.label}</span>
            </Button>
          )}
        </div>
      )}
    </fieldset>
  );
}

function Closures({
  draft,
  errors,
  today,
  onChange,
}: {
  draft: AvailabilityDraft;
  errors: Errors;
  today: string;
  onChange: (closures: AvailabilityDraft['closures']) => void;
}) {
  const headingId = useId();
  const focusKey = useRef<string | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const { closures } = draft;

  // A new closure takes the focus on its first day; after a removal it goes to Add Closure.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after the list changed, which is when the focus moves
  useEffect(() => {
    const key = focusKey.current;
    if (!key) return;
    focusKey.current = null;
    if (key === 'add') addButton.current?.focus();
    else document.querySelector<HTMLInputElement>(`[data-closure="${key}"] input[type="date"]`)?.focus();
  }, [closures]);

  const add = () => {
    const key = newClosureKey();
    focusKey.current = key;
    onChange([...closures, { key, from: today, to: today, reason: '' }]);
  };
  const set = (key: string, change: Partial<AvailabilityDraft['closures'][number]>) => onChange(closures.map((c) => (c.key === key ? { ...c, ...change } : c)));

  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader
        title={<span id={headingId}>Closures</span>}
        description="Days the office is closed on its own account (a retreat, a move). Visitors read the reason: “We are closed that day (reason).”"
      />
      <CardContent className="space-y-3">
        {errors.closures && <p className="text-sm font-medium text-destructive">{errors.closures}</p>}
        {closures.length === 0 ? (
          <p className="text-sm text-muted-foreground">No closures: the weekly hours and the holidays apply.</p>
        ) : (
          <ul className="space-y-3">
            {closures.map((c, i) => {
              const n = i + 1;
              const path = `closures.${i}`;
              return (
                <li key={c.key} data-closure={c.key}>
                  <fieldset className="rounded-md border border-border p-3">
                    <legend className="px-1 text-sm font-semibold">
                      Closure {n} {isPastClosure(c, today) && <Badge variant="secondary">Past</Badge>}
                    </legend>
                    <div className="grid gap-3 sm:grid-cols-[auto_auto_1fr]">
                      <Field label="First day" error={errors[`${path}.from`]}>
                        <Input id={fieldId(`${path}.from`)} type="date" value={c.from} onChange={(e) => set(c.key, { from: e.target.value })} />
                      </Field>
                      <Field label="Last day" error={errors[`${path}.to`]}>
                        <Input
                          id={fieldId(`${path}.to`)}
                          type="date"
                          value={c.to}
                          min={c.from || undefined}
                          onChange={(e) => set(c.key, { to: e.target.value })}
                        />
                      </Field>
                      <Field label="Reason" hint="Shown to visitors." error={errors[`${path}.reason`]}>
                        <Input
                          id={fieldId(`${path}.reason`)}
                          autoComplete="off"
                          maxLength={CLOSURE_REASON_MAX}
                          value={c.reason}
                          onChange={(e) => set(c.key, { reason: e.target.value })}
                        />
                      </Field>
                    </div>
                    <Button
                      variant="outline"
                      size="sm"
                      className="mt-3 h-10 text-destructive"
                      onClick={() => {
                        focusKey.current = 'add';
                        onChange(closures.filter((x) => x.key !== c.key));
                      }}
                    >
                      <Trash2 aria-hidden="true" className="size-4" />
                      Remove<span className="sr-only"> closure {n}</span>
                    </Button>
                  </fieldset>
                </li>
              );
            })}
          </ul>
        )}
        <Button ref={addButton} variant="outline" onClick={add} disabled={closures.length >= MAX_CLOSURES}>
          <CalendarPlus aria-hidden="true" className="size-4" />
          Add Closure
        </Button>
      </CardContent>
    </Card>
  );
}

/** What a change does, and what it leaves alone. */
function AboutChanges() {
  return (
    <AboutCard id="availability-about" title="What saving changes">
      <li>The booking calendar, the times it offers and the checks on every booking follow the new rules as soon as you save.</li>
      <li>
        Appointments already booked stay where they are, even outside the new hours or on a day you close: confirm, move or cancel them yourself on the{' '}
        <a href="/admin/appointments" className="font-medium text-foreground underline underline-offset-4">
          Appointments
        </a>{' '}
        screen (its Day view shows one day at a time).
      </li>
      <li>Changes take effect only after you select Save Changes.</li>
    </AboutCard>
  );
}
