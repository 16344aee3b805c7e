/** The queries calendar sync needs: which integration to use, and which events it has already made. */
import { and, desc, eq, getTableColumns, inArray, isNotNull, sql, type Column, type SQL } from 'drizzle-orm';
import type { Database, Tables } from '../../db/client.ts';
import type { Write } from '../../db/transactions.ts';
import { newDeliveryRow, type NewDelivery } from '../deliveries/deliveries.repository.ts';
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

/**
 * A constant in a SELECT list, as the column stores it. PostgreSQL cannot tell a bare parameter's
 * type there (INSERT … SELECT does not lend it the target column's), so it is cast to the column's.
 */
const constant = (dialect: Database['dialect'], value: unknown, column: Column): SQL =>
  dialect === 'postgres' ? sql`${sql.param(value, column)}::${sql.raw(column.getSQLType())}` : sql`${sql.param(value, column)}`;

/**
 * The outbox write (docs/decisions/022) of a calendar delivery for the integration active when the
 * transaction commits, if there is one: INSERT … SELECT from calendar_settings, so the booking reads
 * nothing before it and an integration switched on or off by another container is seen as committed.
 * The delivery's integration, recipient (a custom webhook's URL, else the provider; the handler
 * records the exact calendar when it sends) and dedupeKey (`dedupePrefix` + the integration's id)
 * come from that row.
 */
export function activeCalendarDeliveryWrite(
  { dialect, t }: Database,
  delivery: Omit<NewDelivery, 'integrationId' | 'recipient' | 'dedupeKey'> & { dedupePrefix: string },
  now: Date,
): Write {
  const settings = t.calendarSettings;
  const stored: Record<string, unknown> = {
    ...newDeliveryRow(delivery, now),
    status: 'pending',
    attempts: 0,
    leaseExpiresAt: null,
    lastError: null,
    externalRef: null,
    sentAt: null,
    // As the columns' own default does (real time, not the injected clock): the runner orders by it.
    createdAt: new Date(),
    updatedAt: new Date(),
  };
  const fromSetting: Record<string, SQL> = {
    integrationId: sql`${settings.id}`,
    recipient: sql`case ${settings.provider} when 'custom' then coalesce(${settings.webhookUrl}, 'custom webhook (no URL)') when 'google' then 'Google Calendar' when 'outlook' then 'Outlook' when 'calendly' then 'Calendly' else ${settings.provider} end`,
    dedupeKey: sql`${constant(dialect, delivery.dedupePrefix, t.deliveries.dedupeKey)} || ${settings.id}`,
  };
  // Every column of deliveries, in the table's order (Drizzle's INSERT … SELECT asks for exactly that).
  const selection = Object.fromEntries(
    Object.entries(getTableColumns(t.deliveries)).map(([key, column]) => [key, fromSetting[key] ?? constant(dialect, stored[key] ?? null, column)]),
  );
  return (tx) =>
    tx
      .insert(t.deliveries)
      // (Typed as the dialects' union, the builder's overloads cannot be told apart: the columns are checked when it runs.)
      .select((qb) => qb.select(selection).from(settings).where(eq(settings.isActive, true)).limit(1) as never)
      .onConflictDoNothing()
      .returning({ id: t.deliveries.id });
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
     * sent with an event id (an insert, an update, or the delete that removed it), and the calendar it
     * is in (null: sent before that was recorded, the integration's calendar). The delivery log
     * outlives the appointment row, so a delete still finds it.
     */
    async lastEventRef(appointmentId: string, integrationId: string): Promise<{ eventId: string; purpose: string; calendarId: string | null } | null> {
      const [row] = await db
        .select({ eventId: deliveries.externalRef, purpose: deliveries.purpose, calendarId: deliveries.externalCalendar })
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
      return row?.eventId ? { eventId: row.eventId, purpose: row.purpose, calendarId: row.calendarId } : null;
    },
  };
}
