/**
 * Where reading an integration's calendar changes stands (calendar_sync_states, docs/decisions/037):
 * its cursor (Google's sync token, Graph's delta link), its push channel, and the lease one container
 * holds while it syncs it. Several containers share the table: the lease and the cursor are only
 * ever changed by compare-and-set.
 */
import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Database, Tables } from '../../db/client.ts';

export type CalendarSyncState = Tables['calendarSyncStates']['$inferSelect'];

export interface PushChannel {
  channelId: string;
  channelResourceId: string | null;
  /** Sealed. */
  channelSecret: string;
  channelExpiresAt: Date;
  channelAddress: string;
}

export function calendarChangesRepository({ db, t }: Database) {
  const states = t.calendarSyncStates;
  return {
    async find(integrationId: string): Promise<CalendarSyncState | null> {
      const [row] = await db.select().from(states).where(eq(states.integrationId, integrationId));
      return row ?? null;
    },

    /** The integration whose push channel (Google channel, Graph subscription) has this id. */
    async findByChannel(channelId: string): Promise<CalendarSyncState | null> {
      const [row] = await db.select().from(states).where(eq(states.channelId, channelId));
      return row ?? null;
    },

    /** States with a push channel, whatever their integration's state (to stop those no longer active). */
    withChannel: () => db.select().from(states).where(isNotNull(states.channelId)),

    /**
     * The lease on this integration's sync for `owner` until `until`, if nobody (this process included:
     * one sync at a time) holds one that
     * has not expired: the row as leased, or null. The row is made on first use.
     */
    async lease(integrationId: string, owner: string, now: Date, until: Date): Promise<CalendarSyncState | null> {
      await db.insert(states).values({ integrationId }).onConflictDoNothing();
      const [row] = await db
        .update(states)
        .set({ leaseOwner: owner, leaseExpiresAt: until })
        .where(and(eq(states.integrationId, integrationId), or(isNull(states.leaseOwner), lt(states.leaseExpiresAt, now))))
        .returning();
      return row ?? null;
    },

    async release(integrationId: string, owner: string): Promise<void> {
      await db
        .update(states)
        .set({ leaseOwner: null, leaseExpiresAt: null })
        .where(and(eq(states.integrationId, integrationId), eq(states.leaseOwner, owner)));
    },

    /**
     * The cursor moved on (`source`: the calendar it was read from), only from the version read and while `owner` still holds the lease: a
     * container whose lease ran out meanwhile does not overwrite a newer cursor. false: it did not.
     */
    async advance(integrationId: string, owner: string, fromVersion: number, cursor: string | null, source: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(states)
        .set({ cursor, source, version: fromVersion + 1, lastSyncedAt: now })
        .where(and(eq(states.integrationId, integrationId), eq(states.version, fromVersion), eq(states.leaseOwner, owner)))
        .returning({ integrationId: states.integrationId });
      return rows.length > 0;
    },

    /** The cursor forgotten while `owner` holds the lease: the next sync reads from now. */
    async forgetCursor(integrationId: string, owner: string): Promise<void> {
      await db
        .update(states)
        .set({ cursor: null, source: null })
        .where(and(eq(states.integrationId, integrationId), eq(states.leaseOwner, owner)));
    },

    /** The push channel, replacing the one that was (`previous`: only if that one is still recorded). */
    async setChannel(integrationId: string, channel: PushChannel | null, previous: string | null): Promise<boolean> {
      const cleared = { channelId: null, channelResourceId: null, channelSecret: null, channelExpiresAt: null, channelAddress: null };
      const rows = await db
        .update(states)
        .set(channel ?? cleared)
        .where(and(eq(states.integrationId, integrationId), previous === null ? isNull(states.channelId) : eq(states.channelId, previous)))
        .returning({ integrationId: states.integrationId });
      return rows.length > 0;
    },
  };
}
