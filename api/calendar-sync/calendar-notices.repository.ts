/** The calendar log's rows (decision 036): one per outage or overlap, newest first. */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

export type CalendarNoticeRow = Database['t']['calendarNotices']['$inferSelect'];
export type CalendarNoticeKind = 'unreachable' | 'reachable-again' | 'overlap';

export function calendarNoticesRepository({ db, t }: Database) {
  const notices = t.calendarNotices;
  const open = (integrationId: string | null, kind: CalendarNoticeKind) =>
    and(integrationId === null ? isNull(notices.integrationId) : eq(notices.integrationId, integrationId), eq(notices.kind, kind), isNull(notices.endedAt));
  return {
    /** Another occurrence of the open notice of this integration and kind: counted, its message the latest. false when none is open. */
    async repeat(integrationId: string | null, kind: CalendarNoticeKind, message: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(notices)
        .set({ count: sql`${notices.count} + 1`, lastSeenAt: at, message })
        .where(open(integrationId, kind))
        .returning({ id: notices.id });
      return rows.length > 0;
    },

    async insert(row: { integrationId: string | null; provider: string; kind: CalendarNoticeKind; message: string; at: Date; ongoing: boolean }) {
      const [created] = await db
        .insert(notices)
        .values({
          integrationId: row.integrationId,
          provider: row.provider,
          kind: row.kind,
          message: row.message,
          firstSeenAt: row.at,
          lastSeenAt: row.at,
          count: 1,
          endedAt: row.ongoing ? null : row.at,
        })
        .returning();
      return created!;
    },

    /** Ends the open notices of this integration and kind; the ones it ended (none: nothing was open). */
    end: (integrationId: string, kind: CalendarNoticeKind, at: Date) => db.update(notices).set({ endedAt: at }).where(open(integrationId, kind)).returning(),

    /** The latest, by when they were last seen. */
    latest: (limit: number) => db.select().from(notices).orderBy(desc(notices.lastSeenAt), desc(notices.firstSeenAt)).limit(limit),
  };
}
