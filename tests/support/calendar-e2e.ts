/**
 * What the calendar specs (calendar-busy, calendar-both-ways, calendar-journey) do alike: find an
 * hour to make busy with a free hour after it, read the booking modal's times for a day, and see an
 * appointment cancelled from the firm's calendar as the admin and the client see it.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { timeSlots } from '../../src/shared/constants.ts';
import { addDays, firmToday } from '../../src/shared/firm-time.ts';
import { expect, openAdminScreen } from './admin.ts';
import { isBookableDay } from './bookable-days.ts';
import { bookingDialog, chooseDay, openBooking } from './booking.ts';

/** A few poll intervals (CALENDAR_POLL_SECONDS), and room for a busy shared machine. */
export const CALENDAR_EFFECT = { timeout: 30_000 };

/**
 * A bookable day 3 to 8 weeks ahead (the modal's calendar reaches it within three months) with an hour
 * free for a 30-minute consultation and the hour after it free too, read before the test's integration
 * exists (so nothing of Google's is kept for it yet). Random: both projects book into one database.
 */
export async function freeHourPair(request: APIRequestContext): Promise<{ date: string; hour: string; next: string }> {
  const today = firmToday(new Date());
  const days = Array.from({ length: 36 }, (_, i) => addDays(today, 21 + i)).filter(isBookableDay);
  for (const date of days.sort(() => Math.random() - 0.5)) {
    const day = (await (await request.get(`/api/appointments/availability?date=${date}&consultationType=initial`)).json()) as {
      slots: { time: string; available: boolean }[];
    };
    const free = new Set(day.slots.filter((s) => s.available).map((s) => s.time));
    for (const hour of ['10:00', '11:00', '13:00', '14:00', '15:00']) {
      const h = Number(hour.slice(0, 2));
      const next = `${h + 1}:00`;
      if (free.has(hour) && free.has(`${h}:30`) && free.has(next)) return { date, hour, next };
    }
  }
  throw new Error('no day with two free hours');
}

/** The modal opened from the home page on `date`, for an Initial Consultation: the day's time radio by its time. */
export async function modalTimes(page: Page, date: string): Promise<(time: string) => Locator> {
  await page.goto('/');
  await openBooking(page, page.locator('section[aria-labelledby="hero-title"]').getByRole('link', { name: 'Schedule Consultation' }));
  const modal = bookingDialog(page);
  await modal.getByRole('radio', { name: 'Initial Consultation (30 min)' }).check();
  await chooseDay(page, date);
  const times = modal.getByRole('group', { name: /^Available times for/ }).getByRole('radio');
  await expect(times).toHaveCount(timeSlots.length);
  return (time: string) => times.nth(timeSlots.indexOf(time as (typeof timeSlots)[number]));
}

/**
 * An appointment whose event was deleted in the firm's Google Calendar, seen as the admin sees it (the
 * Appointments screen reloaded, as they would, until it says Cancelled, with the reason) and as the
 * client does: one cancellation mail, kept in the development outbox (no e-mail configured). Returns
 * the appointment's row, for a screenshot.
 */
export async function expectCancelledFromGoogle(page: Page, adminApi: APIRequestContext, appointmentId: string, email: string): Promise<Locator> {
  const row = page.locator(`[data-testid="appointment"][data-appointment-id="${appointmentId}"]`);
  if (!new URL(page.url()).pathname.startsWith('/admin/appointments')) await openAdminScreen(page, '/admin/appointments', 'Appointments');
  await expect
    .poll(async () => {
      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: 'Appointments' })).toBeVisible();
      return (await row.textContent()) ?? '';
    }, CALENDAR_EFFECT)
    .toContain('Cancelled');
  await expect(row).toContainText("Cancellation reason: Cancelled in the firm's Google Calendar.");

  const outbox = async () =>
    ((await (await adminApi.get('/api/admin/email-outbox')).json()) as { to?: unknown; subject?: string }[]).filter((m) =>
      JSON.stringify(m.to).includes(email),
    );
  await expect
    .poll(async () => (await outbox()).map((m) => m.subject ?? ''), CALENDAR_EFFECT)
    .toContainEqual(expect.stringMatching(/^Cancelled: your consultation on /));
  expect((await outbox()).filter((m) => m.subject?.startsWith('Cancelled:'))).toHaveLength(1);
  return row;
}
