import { describe, expect, it } from 'vitest';
import {
  byFirmDay,
  weekOf,
  appointmentFiltersFromSearch,
  appointmentFiltersToSearch,
  filterAppointments,
  noAppointmentFilters,
  canComplete,
  clientNotice,
  canChangeStatus,
  canConfirm,
  consultationTypeLabel,
  countByStatus,
  filterByStatus,
  splitUpcoming,
  statusOrder,
  type Appointment,
} from './appointments.ts';

const at = (iso: string, duration = 30, status = 'scheduled') => ({ id: iso, scheduledDate: iso, duration, status }) as Appointment;

describe('SPEC §4 Appointment status in the UI', () => {
  it('offers Confirm only while scheduled, and the dropdown only while not completed or cancelled', () => {
    expect(statusOrder.filter((status) => canConfirm({ status }))).toEqual(['scheduled']);
    expect(statusOrder.filter((status) => canChangeStatus({ status }))).toEqual(['scheduled', 'confirmed']);
  });
});

describe('what the client hears, and Completed only once it has started (issue 19)', () => {
  const now = new Date('2030-05-06T17:00:00Z');
  const ahead = { status: 'scheduled', scheduledDate: '2030-05-07T17:00:00Z', externalEventId: null };
  it('offers Completed from the start time on', () => {
    expect(canComplete(ahead, now)).toBe(false);
    expect(canComplete({ scheduledDate: now.toISOString() }, now)).toBe(true);
    expect(canComplete({ scheduledDate: '2030-05-06T16:00:00Z' }, now)).toBe(true);
  });
  it('a Calendly booking: a cancellation is e-mailed without a calendar file, a deletion not at all; both say to cancel it in Calendly', () => {
    const calendly = { ...ahead, externalEventId: 'https://api.calendly.com/scheduled_events/EV1/invitees/INV1' };
    expect(clientNotice('cancel', calendly, { now, emailConfigured: true })).toBe(
      'The client is e-mailed that it is cancelled. It was booked through Calendly: cancel it there too.',
    );
    expect(clientNotice('delete', calendly, { now, emailConfigured: true })).toBe(
      'The client is not e-mailed. It was booked through Calendly: cancel it there too.',
    );
  });
  it('says the client is e-mailed, or that the e-mail is held, or that nothing is sent', () => {
    expect(clientNotice('cancel', ahead, { now, emailConfigured: true })).toBe(
      'The client is e-mailed that it is cancelled, with a calendar file that removes it.',
    );
    // Not known yet: the same sentence as configured (the usual case); never a claim of holding it.
    expect(clientNotice('cancel', ahead, { now, emailConfigured: undefined })).toBe(
      'The client is e-mailed that it is cancelled, with a calendar file that removes it.',
    );
    expect(clientNotice('cancel', ahead, { now, emailConfigured: false })).toBe(
      'E-mail is not configured: the client’s e-mail that it is cancelled is held, not sent.',
    );
    expect(clientNotice('delete', { ...ahead, status: 'cancelled' }, { now, emailConfigured: true })).toBe(
      'The client is not e-mailed: it has already started or ended.',
    );
    expect(clientNotice('cancel', { ...ahead, scheduledDate: '2030-05-06T16:59:00Z' }, { now, emailConfigured: true })).toBe(
      'The client is not e-mailed: it has already started or ended.',
    );
  });
});

describe('count cards and filter', () => {
  it('counts each status and ignores unknown ones', () => {
    const rows = [at('a', 30, 'scheduled'), at('b', 30, 'scheduled'), at('c', 30, 'confirmed'), at('d', 30, 'cancelled'), at('e', 30, 'weird')];
    expect(countByStatus(rows)).toEqual({ scheduled: 2, confirmed: 1, completed: 0, cancelled: 1 });
    expect(filterByStatus(rows, 'scheduled').map((r) => r.id)).toEqual(['a', 'b']);
    expect(filterByStatus(rows, 'all')).toHaveLength(5);
  });
});

describe('splitUpcoming', () => {
  const now = new Date('2026-06-10T17:00:00.000Z');
  it('puts what is not over yet first, soonest first; then the past, most recent first', () => {
    const rows = [
      at('2026-06-01T16:00:00.000Z'),
      at('2026-07-01T16:00:00.000Z'),
      at('2026-06-10T16:45:00.000Z', 30), // in progress until 17:15
      at('2026-06-10T16:00:00.000Z', 60), // ended at 17:00 exactly
      at('2026-06-11T16:00:00.000Z'),
      at('2026-06-09T16:00:00.000Z'),
    ];
    const { upcoming, past } = splitUpcoming(rows, now);
    expect(upcoming.map((r) => r.id)).toEqual(['2026-06-10T16:45:00.000Z', '2026-06-11T16:00:00.000Z', '2026-07-01T16:00:00.000Z']);
    expect(past.map((r) => r.id)).toEqual(['2026-06-10T16:00:00.000Z', '2026-06-09T16:00:00.000Z', '2026-06-01T16:00:00.000Z']);
  });
});

it('labels consultation types as SPEC §9 names them', () => {
  expect(consultationTypeLabel('family-law')).toBe('Family Law Consultation');
  expect(consultationTypeLabel('unknown')).toBe('unknown');
});

describe('search and date range (issue 19)', () => {
  const row = (id: string, firstName: string, scheduledDate: string, extra: Record<string, unknown> = {}) => ({
    id,
    status: 'scheduled',
    scheduledDate,
    firstName,
    lastName: 'Lopez',
    email: `${firstName.toLowerCase()}@example.com`,
    phone: '(619) 555-0199',
    ...extra,
  });
  // 2030-05-06 at 23:30 in San Diego is already 2030-05-07 in UTC: the firm's day counts.
  const rows = [
    row('ab12cd34-0000-0000-0000-000000000000', 'Maria', '2030-05-07T06:30:00Z'),
    row('ef56ab78-0000-0000-0000-000000000000', 'Ana', '2030-05-08T17:00:00Z', { phone: null, status: 'confirmed' }),
    row('99aa88bb-0000-0000-0000-000000000000', 'Luis', '2030-05-20T17:00:00Z', { email: 'luis@firm.example' }),
  ];
  const ids = (filters: Partial<typeof noAppointmentFilters>) => filterAppointments(rows, { ...noAppointmentFilters, ...filters }).map((r) => r.firstName);
  it('matches every word against the name, e-mail and booking reference, and a number against the phone', () => {
    expect(ids({ search: 'maria lopez' })).toEqual(['Maria']);
    expect(ids({ search: 'firm.example' })).toEqual(['Luis']);
    expect(ids({ search: 'EF56-AB78' })).toEqual(['Ana']);
    expect(ids({ search: '619-555' })).toEqual(['Maria', 'Luis']);
    expect(ids({ search: 'nobody' })).toEqual([]);
  });
  it('keeps the firm days from..to, both included, with the status', () => {
    expect(ids({ from: '2030-05-06', to: '2030-05-06' })).toEqual(['Maria']);
    expect(ids({ from: '2030-05-08' })).toEqual(['Ana', 'Luis']);
    expect(ids({ to: '2030-05-08', status: 'confirmed' })).toEqual(['Ana']);
  });
  it('round-trips through the address bar, dropping what is not a filter', () => {
    const filters = { status: 'confirmed' as const, search: 'ana', from: '2030-05-01', to: '2030-05-31' };
    expect(appointmentFiltersToSearch(filters)).toBe('?status=confirmed&q=ana&from=2030-05-01&to=2030-05-31');
    expect(appointmentFiltersFromSearch(appointmentFiltersToSearch(filters))).toEqual(filters);
    expect(appointmentFiltersFromSearch('?status=lost&from=yesterday&q=')).toEqual(noAppointmentFilters);
    expect(appointmentFiltersToSearch(noAppointmentFilters)).toBe('');
  });
});

describe('the week view (issue 19)', () => {
  it('is seven firm days from Monday, whatever day it is asked for', () => {
    expect(weekOf('2030-05-08')).toEqual(['2030-05-06', '2030-05-07', '2030-05-08', '2030-05-09', '2030-05-10', '2030-05-11', '2030-05-12']);
    expect(weekOf('2030-05-12')[0]).toBe('2030-05-06');
    expect(weekOf('2030-05-06')[6]).toBe('2030-05-12');
  });
  it('puts each appointment on its firm day, in time order, and nothing outside the week', () => {
    const at = (iso: string) => ({ id: iso, scheduledDate: iso });
    // 23:30 in San Diego on the 6th is the 7th in UTC.
    const rows = [at('2030-05-07T17:00:00Z'), at('2030-05-07T06:30:00Z'), at('2030-05-06T16:00:00Z'), at('2030-05-14T16:00:00Z')];
    const days = byFirmDay(rows, weekOf('2030-05-06'));
    expect(days.get('2030-05-06')!.map((r) => r.id)).toEqual(['2030-05-06T16:00:00Z', '2030-05-07T06:30:00Z']);
    expect(days.get('2030-05-07')!.map((r) => r.id)).toEqual(['2030-05-07T17:00:00Z']);
    expect([...days.values()].flat()).toHaveLength(3);
  });
});
