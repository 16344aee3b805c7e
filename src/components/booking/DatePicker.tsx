/**
 * The booking modal's date picker (SPEC §5 Booking form): a month grid (WAI-ARIA APG date picker)
 * in firm dates. One day at a time is in the Tab order; arrows move by day and week, Home/End to the
 * week's ends, PageUp/PageDown by month (Shift: by year), Enter or Space picks the day. Days that
 * cannot be booked (past, Saturdays and Sundays, holidays and the firm's closures, beyond the booking
 * window: the firm's rules) stay reachable, so a
 * screen reader announces them as unavailable, and are struck through (not told by colour alone).
 */
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { BookingRules } from '../../shared/booking/rules.ts';
import { longDateLabel, monthLabel, type FirmDate } from '../../shared/firm-time.ts';
import { addMonths, dayState, firstOfMonth, lastOfMonth, monthGrid, monthOf, moveByKey, weekdayNames } from './calendar.ts';

interface Props {
  /** The chosen day, if any. */
  value: FirmDate | null;
  onChange: (date: FirmDate) => void;
  now: Date;
  today: FirmDate;
  /** Where focus starts when nothing is chosen. */
  initial: FirmDate;
  min: FirmDate;
  max: FirmDate;
  /** The firm's booking rules (GET /api/booking-rules): which days are closed, and why. */
  rules: BookingRules;
  /** The id of the visible label of the picker ("Date"). */
  labelledBy: string;
}

export default function DatePicker({ value, onChange, now, today, initial, min, max, rules, labelledBy }: Props) {
  const headingId = useId();
  const [focused, setFocused] = useState<FirmDate>(value ?? initial);
  const month = monthOf(focused);
  const grid = useRef<HTMLTableElement>(null);
  // Only a key press inside the grid moves the browser's focus; the month buttons leave it where it is.
  const moveFocus = useRef(false);

  useEffect(() => {
    if (value) setFocused(value);
  }, [value]);

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`[data-date="${focused}"]`)?.focus();
  }, [focused]);

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const next = moveByKey(focused, event.key, event.shiftKey, min, max);
    if (next === null) return;
    event.preventDefault();
    moveFocus.current = true;
    setFocused(next);
  };

  const showMonth = (n: number) => {
    const next = addMonths(focused, n);
    setFocused(next < min ? min : next > max ? max : next);
  };
  const canGoBack = firstOfMonth(month) > min;
  const canGoForward = lastOfMonth(month) < max;
  const navButton =
    'inline-flex size-11 items-center justify-center rounded-md border border-border hover:bg-accent hover:text-accent-foreground disabled:cursor-not-allowed disabled:opacity-40';

  return (
    <div className="w-full max-w-sm">
      <div className="flex items-center justify-between gap-2">
        <button type="button" className={navButton} onClick={() => showMonth(-1)} disabled={!canGoBack} aria-label="Previous month">
          <ChevronLeft aria-hidden="true" className="size-5" />
        </button>
        <p id={headingId} aria-live="polite" className="text-base font-semibold">
          {monthLabel(month)}
        </p>
        <button type="button" className={navButton} onClick={() => showMonth(1)} disabled={!canGoForward} aria-label="Next month">
          <ChevronRight aria-hidden="true" className="size-5" />
        </button>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the APG date picker dialog: a table with role="grid" and arrow-key navigation */}
      <table ref={grid} role="grid" aria-labelledby={`${labelledBy} ${headingId}`} onKeyDown={onKeyDown} className="mt-2 w-full border-collapse text-center">
        <thead>
          <tr>
            {weekdayNames.map((d) => (
              <th key={d.long} scope="col" abbr={d.long} className="pb-1 text-xs font-medium text-muted-foreground">
                {d.short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthGrid(month).map((week) => (
            <tr key={week.find(Boolean)}>
              {week.map((date, i) => {
                // biome-ignore lint/suspicious/noArrayIndexKey: an empty cell is known by its place in the week
                if (!date) return <td key={`empty-${i}`} />;
                const state = dayState(date, now, rules);
                const selected = date === value;
                const name = state.disabled ? `${longDateLabel(date)}, unavailable (${state.reason})` : longDateLabel(date);
                return (
                  // biome-ignore lint/a11y/useAriaPropsSupportedByRole: a cell of role="grid" is a gridcell, which supports aria-selected (APG date picker)
                  <td key={date} aria-selected={selected} className="p-0.5">
                    <button
                      type="button"
                      data-date={date}
                      tabIndex={date === focused ? 0 : -1}
                      aria-label={name}
                      aria-disabled={state.disabled || undefined}
                      aria-current={date === today ? 'date' : undefined}
                      onClick={() => {
                        setFocused(date);
                        if (!state.disabled) onChange(date);
                      }}
                      className={[
                        // 7 columns must fit a 320 px phone inside the modal: 36 px there, 40 px from 360, 44 px from 375.
                        'inline-flex size-9 items-center justify-center rounded-md text-sm tabular-nums min-[360px]:size-10 min-[375px]:size-11',
                        selected
                          ? 'bg-primary font-semibold text-primary-foreground'
                          : state.disabled
                            ? 'cursor-not-allowed text-muted-foreground line-through'
                            : 'font-medium hover:bg-accent hover:text-accent-foreground',
                        // Today is outlined by a border (the focus ring is an outline, the disabled mark a line-through).
                        date === today && !selected ? 'border-2 border-foreground' : '',
                      ].join(' ')}
                    >
                      {Number(date.slice(8))}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
