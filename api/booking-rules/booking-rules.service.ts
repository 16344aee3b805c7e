/**
 * The firm's availability (decision 032): the booking rules as stored, edited by the admin, and read
 * by every judgement of a booking (api/appointments: the availability answer, the refusal of a
 * booking, a move) and by the booking modal (the public GET).
 *
 * Each container keeps the rules in memory and drops them the moment a 'booking-rules' change is
 * heard, its own or, through the content bus (api/content-bus.ts), another container's; 'site' (a
 * restore) drops them too. So a save is followed at once everywhere, and a booking costs no query for
 * them. A read that began before a change is handed to the callers that asked then, never kept.
 */
import type { BookingRules } from '../../src/shared/booking/rules.ts';
import { type BookingRulesSettings, defaultBookingRulesSettings, rulesOf } from '../../src/shared/schemas/booking-rules.ts';
import type { ContentEvents } from '../content-events.ts';
import type { Deps } from '../deps.ts';
import { bookingRulesRepository } from './booking-rules.repository.ts';

interface Kept {
  /** The read in force: dropped by a change, so a read started before it serves only those who asked then. */
  rules: Promise<BookingRules> | null;
}

// One per app (per its content events), as the public lists are (api/http/public-cache.ts).
const kept = new WeakMap<ContentEvents, Kept>();

function keptFor(events: ContentEvents): Kept {
  let entry = kept.get(events);
  if (!entry) {
    const e: Kept = { rules: null };
    events.subscribe((change) => {
      if (change.topic === 'booking-rules' || change.topic === 'site') e.rules = null;
    });
    kept.set(events, e);
    entry = e;
  }
  return entry;
}

export function bookingRulesService({ database, events }: Pick<Deps, 'database' | 'events'>) {
  const repo = bookingRulesRepository(database);
  const memory = keptFor(events);

  /** The stored settings; the defaults if the rules row is gone (migration 0013 stores it). */
  const settings = async (): Promise<BookingRulesSettings & { updatedAt: string | null }> => {
    const stored = await repo.read();
    return stored ? { ...stored, updatedAt: stored.updatedAt.toISOString() } : { ...defaultBookingRulesSettings, updatedAt: null };
  };

  return {
    settings,

    /** The rules now in force, from memory when nothing changed since they were read. */
    current(): Promise<BookingRules> {
      if (memory.rules) return memory.rules;
      const read = settings().then(rulesOf);
      memory.rules = read;
      // A failed read is not kept: the next call tries again.
      read.catch(() => {
        if (memory.rules === read) memory.rules = null;
      });
      return read;
    },

    /**
     * Replaces the availability. Appointments already booked stay where they are, whatever the new
     * hours or closures say (the screen says so): only new bookings and moves are judged by them.
     */
    async save(input: BookingRulesSettings) {
      await repo.replace(input);
      events.changed({ topic: 'booking-rules' });
      return settings();
    },
  };
}
