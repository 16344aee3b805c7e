/**
 * Connect with Google / Microsoft 365 (issue 20): the pending authorizations (state, browser binding,
 * sealed PKCE verifier) and the connections (account, calendar name, needs-reconnecting).
 */
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

export function calendarConnectRepository({ db, t }: Database) {
  const pending = t.calendarAuthorizations;
  const connections = t.calendarConnections;
  type Pending = typeof pending.$inferInsert;
  type Connection = typeof connections.$inferSelect;
  return {
    async addAuthorization(values: Pending & { id: string }) {
      await db.insert(pending).values(values);
    },
    /** Authorizations that expired a day ago or more: nobody can finish them (each connect sweeps). */
    async pruneAuthorizations(before: Date) {
      await db.delete(pending).where(lt(pending.expiresAt, before));
    },
    async authorizationByState(stateHash: string) {
      const [row] = await db.select().from(pending).where(eq(pending.stateHash, stateHash));
      return row ?? null;
    },
    /**
     * Marks it used, once: the row is returned to the one caller whose UPDATE found it unused, so a
     * replayed callback, or the same one reaching two containers, gets null.
     */
    async consumeAuthorization(id: string, now: Date) {
      const [row] = await db
        .update(pending)
        .set({ usedAt: now })
        .where(and(eq(pending.id, id), isNull(pending.usedAt)))
        .returning({ id: pending.id });
      return row !== undefined;
    },

    async connection(integrationId: string): Promise<Connection | null> {
      const [row] = await db.select().from(connections).where(eq(connections.integrationId, integrationId));
      return row ?? null;
    },
    listConnections: () => db.select().from(connections),
    /** A new connection (after consent): the account, nothing else yet. */
    async saveConnection(integrationId: string, accountEmail: string | null, now: Date) {
      const values = { accountEmail, calendarName: null, connectedAt: now, needsReconnectAt: null, needsReconnectReason: null };
      await db
        .insert(connections)
        .values({ integrationId, ...values })
        .onConflictDoUpdate({ target: connections.integrationId, set: values });
    },
    /** The picked calendar's name; a connection made by hand (a pasted refresh token) gets its row now. */
    async saveCalendarName(integrationId: string, calendarName: string, now: Date) {
      await db
        .insert(connections)
        .values({ integrationId, calendarName, connectedAt: now })
        .onConflictDoUpdate({ target: connections.integrationId, set: { calendarName } });
    },
    async markNeedsReconnect(integrationId: string, reason: string, now: Date) {
      const values = { needsReconnectAt: now, needsReconnectReason: reason };
      await db
        .insert(connections)
        .values({ integrationId, connectedAt: now, ...values })
        .onConflictDoUpdate({ target: connections.integrationId, set: values });
    },
    async removeConnection(integrationId: string) {
      await db.delete(connections).where(eq(connections.integrationId, integrationId));
    },
  };
}
