/**
 * The firm's booking rules for the date picker (GET /api/booking-rules: the hours, holidays,
 * closures, notice and horizon the admin set on /admin/availability; decision 032), so the calendar
 * strikes through the days the server would refuse. Fetched again whenever `refresh` changes (each
 * opening of the modal, a retry, a refused booking); the rules of the last answer stay on screen
 * meanwhile. The day's own answer (use-availability.ts) has the last word on its slots.
 */
import { useEffect, useState } from 'react';
import { api, read } from '../../lib/api-client.ts';
import type { BookingRules } from '../../shared/booking/rules.ts';

export type BookingRulesState = { status: 'loading' } | { status: 'ready'; rules: BookingRules } | { status: 'error' };

/** The last rules heard, for the next opening of the modal (or another island) while it asks again. */
let last: BookingRules | null = null;

export function useBookingRules(refresh: number): BookingRulesState {
  const [state, setState] = useState<BookingRulesState>(() => (last ? { status: 'ready', rules: last } : { status: 'loading' }));

  // biome-ignore lint/correctness/useExhaustiveDependencies: `refresh` is the trigger to ask again
  useEffect(() => {
    let current = true;
    read(api['booking-rules'].$get()).then(
      (rules) => {
        last = rules;
        if (current) setState({ status: 'ready', rules });
      },
      () => current && setState((s) => (s.status === 'ready' ? s : { status: 'error' })),
    );
    return () => {
      current = false;
    };
  }, [refresh]);

  return state;
}
