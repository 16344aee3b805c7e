import { describe, expect, it } from 'vitest';
import { timeOrderedId } from './deliveries.repository.ts';

describe('timeOrderedId', () => {
  it('sorts in creation order, also within one millisecond and past 4,096 of them', () => {
    const ids = Array.from({ length: 10_000 }, () => timeOrderedId(1_800_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const later = timeOrderedId(1_800_000_000_100);
    expect([...ids, later].sort().at(-1)).toBe(later);
  });

  it('has the UUIDv7 layout', () => {
    expect(timeOrderedId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
