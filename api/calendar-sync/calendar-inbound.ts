/**
 * Both ways (issue 20, item 3; docs/decisions/037): what the firm does in its own Google or Outlook
 * calendar to an appointment's event comes back to the site, with the visitor told as when an admin
 * makes the change here. An event deleted (or cancelled) there cancels its appointment
 * (appointmentsService.setStatus, whose activity mails the cancellation and removes nothing twice);
 * an event moved there moves it (appointmentsService.moveByFirm, mailed as any move).
 *
 * Only the active Google or Outlook integration is read, by its incremental sync (calendar-changes.ts):
 * by push where the site has a public https address (a Google watch channel, a Graph subscription,
 * each renewed before it lapses and stopped when the integration stops being the active one) and a slow
 * safety poll besides, by polling every CALENDAR_POLL_SECONDS otherwise. A notification only asks
 * for the same sync.
 *
 * Several containers share one database: one syncs an integration at a time (a lease in
 * calendar_sync_states), the cursor advances by compare-and-set, and applying a change twice does
 * nothing the second time (the appointment already says so; the visitor's mails are keyed per
 * change), so a visitor gets one mail. Our own writes come back as changes too: an event that says
 * what the appointment says is no change, so nothing loops.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AppointmentRow } from '../activity.ts';
import { appointmentsService, terminalStatuses } from '../appointments/appointments.service.ts';
import { openField, sealField, UnreadableSecretError, type SecretOwner } from '../crypto/sealed-config.ts';
import { PermanentDeliveryError } from '../deliveries/deliveries.ts';
import { deliveriesRepository } from '../deliveries/deliveries.repository.ts';
import type { Deps } from '../deps.ts';
import { HttpError } from '../http/errors.ts';
import { isLoopbackOrPrivateHost } from '../http/outbound-fetch.ts';
import { consultationTypeLabel } from '../../src/shared/constants.ts';
import { whenLabel } from '../../src/shared/firm-time.ts';
import { calendarChangesRepository, type CalendarSyncState } from './calendar-changes.repository.ts';
import { recordCalendarNotice } from './calendar-notices.ts';
import {
  CHANNEL_RENEW_BEFORE_MS,
  closeChannel,
  openChannel,
  readChanges,
  renewSubscription,
  type ChangeProvider,
  type EventChange,
} from './calendar-changes.ts';
import { calendarSyncRepository, openSecrets, type CalendarSetting } from './calendar-sync.repository.ts';
import { googleCalendar } from './google.ts';
import { outlookCalendar } from './outlook.ts';
import { restCalendar, tokenCacheFor, type CalendarApi } from './rest-calendar.ts';

/** How long one container may hold an integration's sync before another may take it over. */
const LEASE_MS = 2 * 60_000;
/** With a push channel open, the poll that catches what a silently stopped channel missed. */
export const SAFETY_POLL_MS = 15 * 60_000;
/** A timer tick may come a little before a whole interval has passed since the last read began. */
const TICK_SLACK_MS = 500;
/** A notification that finds another container syncing tries again this many times, a second apart. */
const BUSY_RETRIES = 5;
const BUSY_RETRY_MS = 1_000;
/** Graph's validation token is a short sentence; anything longer is not Graph. */
const MAX_VALIDATION_TOKEN = 1024;

type InboundDeps = Pick<Deps, 'database' | 'clock' | 'activity' | 'events' | 'integrations' | 'secrets' | 'log'>;

const isChangeProvider = (provider: string): provider is ChangeProvider => provider === 'google' || provider === 'outlook';
const notificationPath = (provider: ChangeProvider) => `/api/integrations/${provider}/notifications`;

/** The same text, compared in constant time whatever their lengths. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Where the providers may post notifications, or null (polling only): CALENDAR_NOTIFICATION_BASE_URL
 * when set, else SITE_URL when it is https on a public name (Google and Microsoft post only there).
 */
export function notificationBase(integrations: Deps['integrations']): string | null {
  if (integrations.calendarNotificationBaseUrl) return integrations.calendarNotificationBaseUrl.replace(/\/+$/, '');
  let site: URL;
  try {
    site = new URL(integrations.siteUrl);
  } catch {
    return null;
  }
  if (site.protocol !== 'https:' || isLoopbackOrPrivateHost(site.hostname)) return null;
  return site.origin;
}

export type NotificationAnswer = { status: 200 | 202 | 400 | 403; text?: string };

const services = new WeakMap<object, ReturnType<typeof createCalendarInbound>>();

/** One per app (its routes and its background work share it: the syncs it has running, its token cache). */
export function calendarInbound(deps: InboundDeps) {
  let service = services.get(deps);
  if (!service) {
    service = createCalendarInbound(deps);
    services.set(deps, service);
  }
  return service;
}

function createCalendarInbound(deps: InboundDeps) {
  const { clock, log, secrets, integrations } = deps;
  const states = calendarChangesRepository(deps.database);
  const settings = calendarSyncRepository(deps.database);
  const deliveries = deliveriesRepository(deps.database);
  const appointments = appointmentsService(deps);
  const tokens = tokenCacheFor(deps);
  const calendars = { google: restCalendar(deps, tokens, googleCalendar), outlook: restCalendar(deps, tokens, outlookCalendar) };
  const graphBase = integrations.microsoftGraphApiBase.replace(/\/+$/, '');
  // This process, as the holder of a lease.
  const owner = randomUUID();
  const channelOwner = (integrationId: string): SecretOwner => ({ table: 'calendar-settings', id: integrationId });

  const apiOf = (setting: CalendarSetting & { provider: ChangeProvider }) => calendars[setting.provider].forSetting(openSecrets(secrets, setting));

  /**
   * The appointment an event of this integration is for: the one it names (Google's private
   * property), else the one that knows it by id; in both cases only if that event is the
   * appointment's own event here (a copy of an old event does not move it).
   */
  async function appointmentOf(setting: CalendarSetting, change: EventChange): Promise<AppointmentRow | null> {
    const candidate = change.appointmentId ? await appointments.findById(change.appointmentId) : await appointments.findByExternalEventId(change.eventId);
    if (!candidate) return null;
    if (candidate.externalEventId === change.eventId) return candidate;
    return (await settings.lastEventRef(candidate.id, setting.id))?.eventId === change.eventId ? candidate : null;
  }

  /** What the change means for its appointment, done; what was done, or null for nothing. */
  async function apply(setting: CalendarSetting, label: string, change: EventChange): Promise<'cancelled' | 'moved' | null> {
    const appointment = await appointmentOf(setting, change);
    if (!appointment || terminalStatuses.includes(appointment.status)) return null;
    const now = clock.now();
    if (change.removed) {
      // An event of a consultation that has taken place, cleared away afterwards, cancels nothing.
      if (appointment.scheduledDate.getTime() <= now.getTime()) return null;
      try {
        await appointments.setStatus(appointment.id, 'cancelled', { reason: `Cancelled in the firm's ${label}.` });
        return 'cancelled';
      } catch (err) {
        // Cancelled or completed meanwhile (an admin here, another container): nothing left to do.
        if (err instanceof HttpError && err.status === 409) return null;
        throw err;
      }
    }
    if (!change.start || change.start.getTime() === appointment.scheduledDate.getTime()) return null;
    // Our own change of this appointment is still on its way to the calendar: the event is behind
    // the site, not moved by the firm; once our write lands it comes back equal.
    if (await deliveries.hasUnfinished('calendar', appointment.id)) return null;
    try {
      const moved = await appointments.moveByFirm(appointment.id, change.start);
      if (!moved) return null;
      // The firm's move stands (it happened in its calendar), but one onto another client's booking
      // leaves two appointments at once: the calendar log tells the admin, as for a Calendly overlap.
      for (const other of await appointments.overlapping(moved)) {
        await recordCalendarNotice(deps, {
          integrationId: setting.id,
          provider: label,
          kind: 'overlap',
          message: `An appointment moved in the firm's ${label} (${consultationTypeLabel(moved.consultationType)}, now ${whenLabel(moved.scheduledDate)}, ${moved.duration} minutes) landed on time already booked on the site (${consultationTypeLabel(other.consultationType)}, ${whenLabel(other.scheduledDate)}, ${other.duration} minutes). Both are kept; settle it with the clients.`,
        });
      }
      return 'moved';
    } catch (err) {
      if (err instanceof HttpError && err.status === 409) return null;
      throw err;
    }
  }

  /** Opens, renews or closes the integration's push channel, as the site's address allows; inside the lease. */
  async function keepChannel(
    setting: CalendarSetting & { provider: ChangeProvider },
    api: CalendarApi,
    state: CalendarSyncState,
    sameSource: boolean,
  ): Promise<void> {
    const base = notificationBase(integrations);
    const address = base ? `${base}${notificationPath(setting.provider)}` : null;
    const now = clock.now();
    const current = state.channelId ? { id: state.channelId, resourceId: state.channelResourceId } : null;
    // A channel watching another calendar (or posting elsewhere) is replaced, not kept or renewed.
    const same = current !== null && address !== null && state.channelAddress === address && sameSource;
    if (same && state.channelExpiresAt && state.channelExpiresAt.getTime() - now.getTime() > CHANNEL_RENEW_BEFORE_MS) return;
    if (same && setting.provider === 'outlook') {
      const renewed = await renewSubscription(api, graphBase, current.id, now);
      if (renewed) {
        await states.setChannel(
          setting.id,
          { channelId: current.id, channelResourceId: null, channelSecret: state.channelSecret!, channelExpiresAt: renewed, channelAddress: address },
          current.id,
        );
        return;
      }
    }
    if (address) {
      const secret = randomBytes(32).toString('base64url');
      const opened = await openChannel(setting.provider, api, { address, secret, now, graphBase });
      const channel = {
        channelId: opened.id,
        channelResourceId: opened.resourceId,
        channelSecret: sealField(secrets, secret, channelOwner(setting.id), 'channelSecret')!,
        channelExpiresAt: opened.expiresAt,
        channelAddress: address,
      };
      if (!(await states.setChannel(setting.id, channel, current?.id ?? null))) {
        // Recorded meanwhile by a container whose lease ran out: this one is not needed.
        await closeChannel(setting.provider, api, graphBase, opened);
        return;
      }
    } else if (current) await states.setChannel(setting.id, null, current.id);
    if (current) await closeChannel(setting.provider, api, graphBase, current).catch((err) => warn(setting, 'closing the old channel', err));
  }

  function warn(setting: CalendarSetting, what: string, err: unknown) {
    log.warn('calendar changes', { integrationId: setting.id, provider: setting.provider, what, err: err instanceof Error ? err.message : String(err) });
  }

  /**
   * Reads the integration's changes since its cursor and applies them, then keeps its push channel;
   * 'busy' when another container (or this one) holds its lease. How many appointments changed.
   */
  async function syncIntegration(setting: CalendarSetting & { provider: ChangeProvider }, { onlyIfDue = false } = {}): Promise<number | 'busy'> {
    const now = clock.now();
    const state = await states.lease(setting.id, owner, now, new Date(now.getTime() + LEASE_MS));
    if (!state) return 'busy';
    try {
      const api = apiOf(setting);
      // The calendar read: a cursor and channel of another one (a calendar picked since, another
      // mailbox) say nothing about it, so it is read from now and watched anew.
      const source = `${api.root} ${api.calendarId ?? ''}`;
      const sameSource = state.source === source;
      const cursor = sameSource ? state.cursor : null;
      const pushed = state.channelId !== null && notificationBase(integrations) !== null;
      const due =
        !onlyIfDue ||
        !sameSource ||
        !state.lastSyncedAt ||
        now.getTime() - state.lastSyncedAt.getTime() >= (pushed ? SAFETY_POLL_MS : integrations.calendarPollSeconds * 1000) - TICK_SLACK_MS;
      let applied = 0;
      if (due) {
        let read = await readChanges(setting.provider, api, cursor, now, graphBase);
        // The provider forgot where we were: everything from now again (applying it twice is harmless).
        if ('stale' in read) read = await readChanges(setting.provider, api, null, now, graphBase);
        if ('stale' in read) throw new Error('the provider refused a full read');
        for (const change of read.changes) if (await apply(setting, api.label, change)) applied++;
        // When this read began: the next tick, an interval later, finds it due.
        if (!(await states.advance(setting.id, owner, state.version, read.cursor, source, now))) warn(setting, 'advancing the cursor', 'lost the lease');
      }
      await keepChannel(setting, api, state, sameSource).catch((err) => warn(setting, 'keeping the push channel', err));
      return applied;
    } finally {
      await states.release(setting.id, owner);
    }
  }

  /**
   * Stops the leased integration's push channel and forgets it. One that can never be stopped from
   * here (the token disconnected or refused, the config unreadable) is forgotten all the same: it
   * lapses by itself within CHANNEL_LIFETIME_MS, and its notifications find no active integration.
   */
  async function stopChannel(setting: CalendarSetting & { provider: ChangeProvider }, leased: CalendarSyncState) {
    if (!leased.channelId) return;
    const channel = { id: leased.channelId, resourceId: leased.channelResourceId };
    try {
      await closeChannel(setting.provider, apiOf(setting), graphBase, channel);
    } catch (err) {
      if (!(err instanceof PermanentDeliveryError || err instanceof UnreadableSecretError)) throw err;
      warn(setting, 'the push channel cannot be stopped (it lapses by itself)', err);
    }
    await states.setChannel(setting.id, null, leased.channelId);
  }

  /** Channels of integrations no longer the active one are stopped (deactivated, or replaced by another). */
  async function closeStaleChannels(activeId: string | null) {
    for (const state of await states.withChannel()) {
      if (state.integrationId === activeId) continue;
      const setting = await settings.settingById(state.integrationId);
      if (!setting || !isChangeProvider(setting.provider)) continue;
      const now = clock.now();
      const leased = await states.lease(setting.id, owner, now, new Date(now.getTime() + LEASE_MS));
      if (!leased) continue;
      try {
        await stopChannel({ ...setting, provider: setting.provider }, leased);
      } catch (err) {
        warn(setting, 'stopping the push channel of an inactive integration', err);
      } finally {
        await states.release(setting.id, owner);
      }
    }
  }

  // Syncs asked for by notifications, one per integration at a time in this process.
  const running = new Map<string, { again: boolean; done: Promise<void> }>();

  async function syncById(integrationId: string, { onlyIfDue = false } = {}): Promise<number | 'busy' | null> {
    const setting = await settings.settingById(integrationId);
    if (!setting?.isActive || !isChangeProvider(setting.provider)) return null;
    return syncIntegration({ ...setting, provider: setting.provider }, { onlyIfDue });
  }

  /** A notification's sync: run now, or once more after the one running; retried while another container holds the lease. */
  function trigger(integrationId: string) {
    const run = running.get(integrationId);
    if (run) {
      run.again = true;
      return;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        for (let round = 0; round === 0 || entry.again; round++) {
          entry.again = false;
          for (let attempt = 0; attempt <= BUSY_RETRIES; attempt++) {
            if ((await syncById(integrationId)) !== 'busy') break;
            await new Promise((r) => setTimeout(r, BUSY_RETRY_MS));
          }
        }
      } catch (err) {
        log.error('calendar changes', { integrationId, what: 'sync after a notification', err: err instanceof Error ? err.message : String(err) });
      } finally {
        running.delete(integrationId);
      }
    })();
    running.set(integrationId, entry);
  }

  /** The integration whose channel this is, if the secret is its own (constant time); else null. */
  async function channelIntegration(channelId: string | undefined, secret: string | undefined, provider: ChangeProvider): Promise<string | null> {
    if (!channelId || !secret || channelId.length > 200 || secret.length > 200) return null;
    const state = await states.findByChannel(channelId);
    if (!state?.channelSecret) return null;
    const setting = await settings.settingById(state.integrationId);
    if (setting?.provider !== provider) return null;
    let expected: string | null;
    try {
      expected = openField(secrets, state.channelSecret, channelOwner(state.integrationId), 'channelSecret');
    } catch {
      return null;
    }
    return expected && sameSecret(secret, expected) ? state.integrationId : null;
  }

  return {
    /**
     * The active integration's changes read and applied, its push channel kept, and channels of
     * integrations no longer active stopped. `onlyIfDue` (the timer): skipped until the poll
     * interval (or, with a channel open, the safety interval) has passed since the last read.
     */
    async syncActive({ onlyIfDue = false } = {}): Promise<number> {
      const active = await settings.activeSetting();
      await closeStaleChannels(active && isChangeProvider(active.provider) ? active.id : null);
      if (!active || !isChangeProvider(active.provider)) return 0;
      const result = await syncIntegration({ ...active, provider: active.provider }, { onlyIfDue });
      return result === 'busy' ? 0 : result;
    },

    /** Google's notification (its X-Goog-* headers): 'sync' acknowledged, anything else a sync. */
    async googleNotification(headers: { channelId?: string; token?: string; state?: string }): Promise<NotificationAnswer> {
      const integrationId = await channelIntegration(headers.channelId, headers.token, 'google');
      if (!integrationId) return { status: 403 };
      if (headers.state !== 'sync') trigger(integrationId);
      return { status: 200 };
    },

    /**
     * Graph's validation handshake (the token echoed as text, at once), or its change notifications
     * (each checked by its subscription's clientState): 202 when one was ours.
     */
    async outlookNotification(validationToken: string | undefined, body: string): Promise<NotificationAnswer> {
      if (validationToken !== undefined) {
        if (!validationToken || validationToken.length > MAX_VALIDATION_TOKEN) return { status: 400 };
        return { status: 200, text: validationToken };
      }
      let items: unknown;
      try {
        items = (JSON.parse(body) as { value?: unknown }).value;
      } catch {
        return { status: 400 };
      }
      if (!Array.isArray(items) || !items.length || items.length > 100) return { status: 400 };
      const ours = new Set<string>();
      for (const item of items as { subscriptionId?: unknown; clientState?: unknown }[]) {
        if (typeof item?.subscriptionId !== 'string' || typeof item.clientState !== 'string') continue;
        const integrationId = await channelIntegration(item.subscriptionId, item.clientState, 'outlook');
        if (integrationId) ours.add(integrationId);
      }
      if (!ours.size) return { status: 403 };
      for (const id of ours) trigger(id);
      return { status: 202 };
    },

    /**
     * Disconnect (api/calendar-connect): the integration's push channel stopped while its token still
     * works, and its cursor forgotten (the account connected next may be another). When another
     * container is syncing it just now, the timer stops the channel later instead.
     */
    async forget(integrationId: string): Promise<void> {
      const setting = await settings.settingById(integrationId);
      if (!setting || !isChangeProvider(setting.provider)) return;
      const now = clock.now();
      const leased = await states.lease(setting.id, owner, now, new Date(now.getTime() + LEASE_MS));
      if (!leased) return;
      try {
        await stopChannel({ ...setting, provider: setting.provider }, leased).catch((err) => warn(setting, 'stopping the push channel at Disconnect', err));
        await states.forgetCursor(setting.id, owner);
      } finally {
        await states.release(setting.id, owner);
      }
    },

    /** Resolves when the syncs notifications asked for have finished (tests; shutdown). */
    async settled(): Promise<void> {
      while (running.size) await Promise.allSettled([...running.values()].map((r) => r.done));
    },
  };
}
