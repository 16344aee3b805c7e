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

/** How a day is fetched: the public availability, or a booking's own (self-service, where its own time counts as free). */
export type FetchDay = (date: FirmDate, consultationType: ConsultationType) => Promise<DayAvailability>;

const publicDay: FetchDay = (date, consultationType) => read(api.appointments.availability.$get({ query: { date, consultationType } }));

export function useAvailability(
  date: FirmDate | null,
  consultationType: ConsultationType | null,
  refresh: number,
  fetchDay: FetchDay = publicDay,
): AvailabilityState {
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
    fetchDay(date, consultationType ?? 'initial').then(
      (day) => current && setState({ status: 'ready', day }),
      () => current && setState({ status: 'error' }),
    );
    return () => {
      current = false;
    };
  }, [date, consultationType, refresh, fetchDay]);

  return state;
}
