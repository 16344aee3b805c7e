/**
 * The free slots of a day for a consultation type: GET
 * /api/appointments/availability through the typed client. Fetched again whenever the date, the
 * type (a longer consultation needs a longer free stretch) or `refresh` changes; an answer that
 * arrives after a newer question is dropped.
 */
import { useEffect, useState } from 'react';
import { api, read } from '../../lib/api-client.ts';
import type { DayAvailability } from '../../shared/booking/availability.ts';
import type { ConsultationType } from '../../shared/constants.ts';
import type { FirmDate } from '../../shared/firm-time.ts';

export type AvailabilityState =
  | { status: 'idle' }
  | { status: 'loading'; previous: DayAvailability | null }
  | { status: 'ready'; day: DayAvailability }
  | { status: 'error' };

export function useAvailability(date: FirmDate | null, consultationType: ConsultationType | null, refresh: number): AvailabilityState {
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
    read(api.appointments.availability.$get({ query: { date, consultationType: consultationType ?? 'initial' } })).then(
      (day) => current && setState({ status: 'ready', day }),
      () => current && setState({ status: 'error' }),
    );
    return () => {
      current = false;
    };
  }, [date, consultationType, refresh]);

  return state;
}
