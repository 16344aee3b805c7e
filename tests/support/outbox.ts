/** What the outbox tests share: a clean slate of bookings, messages and deliveries, and an active calendar webhook. */
import { expect } from 'vitest';
import type { TestContext } from './test-app.ts';

/** Deletes every delivery, appointment, contact message and calendar integration. */
export async function clearActivity(ctx: TestContext) {
  const { db, t } = ctx.database;
  await db.delete(t.deliveries);
  await db.delete(t.appointments);
  await db.delete(t.contactSubmissions);
  await db.delete(t.calendarSettings);
}

/** A custom calendar webhook, active (bookings then also queue an event-create); its id. */
export async function activeWebhook(ctx: TestContext, { webhookUrl, apiKey }: { webhookUrl: string; apiKey: string }): Promise<string> {
  const created = await ctx.admin('POST', '/api/admin/calendar-settings', { provider: 'custom', config: '{}', webhookUrl, apiKey });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await ctx.admin('PUT', `/api/admin/calendar-settings/${created.body.id}/activate`)).status).toBe(200);
  return created.body.id as string;
}
