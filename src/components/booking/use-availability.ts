/**
 * The free slots of a day for a consultation type (issue 5 "Availability"): GET
 * /api/appointments/availability through the one request helper. Fetched again whenever the date, the
 * type (a longer consultation needs a longer free stretch) or `refresh` changes; an answer that
 * arrives after a newer question is dropped.
 */
import { useEffect, useState } from 'react';
import { apiRequest } from '../../lib/api-client.ts';
import type { DayAvailability } from '../../shared/booking/availability.ts';
import type { FirmDate } from '../../shared/firm-time.ts';

export type AvailabilityState =
  | { status: 'idle' }
  | { status: 'loading'; previous: DayAvailability | null }
  | { status: 'ready'; day: DayAvailability }
  | { status: 'error' };

export function availabilityPath(date: FirmDate, consultationType: string | null): string {
  return `/api/appointments/availability?${new URLSearchParams({ date, consultationType: consultationType ?? 'initial' })}`;
}

export function useAvailability(date: FirmDate | null, consultationType: string | null, refresh: number): AvailabilityState {
  const [state, setState] = useState<AvailabilityState>({ status: 'idle' });

  // biome-ignore lint/correctness/useExhaustiveDependencies: `refresh` is the trigger to fetch the same day again
  useEffect(() => {
    if (!date) {
      setState({ status: 'idle' });
      return;
    }
    let current = true;
    // While the same day is fetched again (another type, a refresh), its slots stay on screen.
    setState((s) => ({ status: 'loading', previous: s.status === 'ready' && s.day.date === date ? s.day : null }));
    apiRequest('GET', availabilityPath(date, consultationType))
      .then((res) => res.json() as Promise<DayAvailability>)
      .then(
        (day) => current && setState({ status: 'ready', day }),
        () => current && setState({ status: 'error' }),
      );
    return () => {
      current = false;
    };
  }, [date, consultationType, refresh]);

  return state;
}
