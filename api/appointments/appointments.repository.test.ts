import { describe, expect, it } from 'vitest';
import { claimCells } from './appointments.repository.ts';

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('claimCells (docs/decisions/008)', () => {
  it('claims ceil(minutes / 30) cells from a slot start', () => {
    const nine = new Date('2030-07-15T16:00:00Z');
    expect(iso(claimCells(nine, 30))).toEqual(['2030-07-15T16:00:00.000Z']);
    expect(iso(claimCells(nine, 45))).toEqual(['2030-07-15T16:00:00.000Z', '2030-07-15T16:30:00.000Z']);
    expect(iso(claimCells(nine, 60))).toEqual(['2030-07-15T16:00:00.000Z', '2030-07-15T16:30:00.000Z']);
    expect(iso(claimCells(nine, 61))).toHaveLength(3);
  });

  it('claims every cell an unaligned time touches (older rows; the backfill does the same)', () => {
    expect(iso(claimCells(new Date('2030-07-15T16:15:00Z'), 30))).toEqual(['2030-07-15T16:00:00.000Z', '2030-07-15T16:30:00.000Z']);
    expect(iso(claimCells(new Date('2030-07-15T16:28:00Z'), 2))).toEqual(['2030-07-15T16:00:00.000Z']);
    expect(iso(claimCells(new Date('2030-07-15T16:29:59.999Z'), 1))).toEqual(['2030-07-15T16:00:00.000Z', '2030-07-15T16:30:00.000Z']);
  });
});
