/** The queries calendar sync needs: which integration to use, and which events it has already made. */
import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Database, Tables } from '../../db/client.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { openConfig, openField } from '../crypto/sealed-config.ts';

export type CalendarSetting = Tables['calendarSettings']['$inferSelect'];

/**
 * The setting with its secrets opened (config and API key, docs/decisions/015), for the one request
 * that uses them. Throws UnreadableSecretError when one does not open.
 */
export function openSecrets(secrets: SecretBox, setting: CalendarSetting): CalendarSetting {
  const owner = { table: 'calendar-settings', id: setting.id } as const;
  return { ...setting, config: openConfig(secrets, setting.config, owner)!, apiKey: openField(secrets, setting.apiKey, owner, 'apiKey') };
}

export function calendarSyncRepository({ db, t }: Database) {
  const settings = t.calendarSettings;
  const deliveries = t.deliveries;
  return {
    async activeSetting(): Promise<CalendarSetting | null> {
      const [row] = await db.select().from(settings).where(eq(settings.isActive, true)).limit(1);
      return row ?? null;
    },

    async settingById(id: string): Promise<CalendarSetting | null> {
      const [row] = await db.select().from(settings).where(eq(settings.id, id));
      return row ?? null;
    },

    /** Integrations that were sent something about this appointment (so they may hold an event to remove). */
    async settingsThatSent(appointmentId: string): Promise<CalendarSetting[]> {
      const sent = await db
        .selectDistinct({ integrationId: deliveries.integrationId })
        .from(deliveries)
        .where(
          and(
            eq(deliveries.channel, 'calendar'),
            eq(deliveries.appointmentId, appointmentId),
            eq(deliveries.status, 'sent'),
            isNotNull(deliveries.integrationId),
          ),
        );
      const ids = sent.map((r) => r.integrationId!).filter(Boolean);
      if (!ids.length) return [];
      return db.select().from(settings).where(inArray(settings.id, ids));
    },

    /**
     * The provider's event for this appointment in this integration: the newest delivery that was
     * sent with an event id (an insert, an update, or the delete that removed it). The delivery log
     * outlives the appointment row, so a delete still finds it.
     */
    async lastEventRef(appointmentId: string, integrationId: string): Promise<{ eventId: string; purpose: string } | null> {
      const [row] = await db
        .select({ eventId: deliveries.externalRef, purpose: deliveries.purpose })
        .from(deliveries)
        .where(
          and(
            eq(deliveries.channel, 'calendar'),
            eq(deliveries.appointmentId, appointmentId),
            eq(deliveries.integrationId, integrationId),
            eq(deliveries.status, 'sent'),
            isNotNull(deliveries.externalRef),
          ),
        )
        .orderBy(desc(deliveries.createdAt), desc(deliveries.sentAt))
        .limit(1);
      return row?.eventId ? { eventId: row.eventId, purpose: row.purpose } : null;
    },
  };
}
