import { describe, expect, it } from 'vitest';
import {
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
