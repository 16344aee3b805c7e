/**
 * Reading a Google or Outlook calendar's changes (issue 20, item 3; docs/decisions/037), as each
 * provider documents its incremental sync, and opening and closing its push channel:
 *   Google  events.list with a syncToken (the first time a full list from now, showDeleted and
 *           singleEvents, to get nextSyncToken; pages by pageToken; 410 Gone: the token is stale, a
 *           full list again), events.watch channels, channels.stop.
 *   Graph   calendarView/delta (the first time over a window from now; pages by @odata.nextLink, then
 *           @odata.deltaLink; 410: stale), subscriptions created, renewed (PATCH) and deleted.
 * What comes back is each event's id, the appointment it says it is for, and whether it is gone or
 * where it now is; calendar-inbound.ts decides what that means for the appointment.
 */
import { randomUUID } from 'node:crypto';
import { firmInstant } from '../../src/shared/firm-time.ts';
import type { SafeResponse } from '../http/outbound-fetch.ts';
import { GRAPH_FIRM_TIME_ZONE } from './outlook.ts';
import { providerMessage, type CalendarApi } from './rest-calendar.ts';

export type ChangeProvider = 'google' | 'outlook';

/** One event as the provider now has it. */
export interface EventChange {
  eventId: string;
  /** Google's extendedProperties.private.appointmentId, when the event still carries it. */
  appointmentId: string | null;
  /** Deleted, or cancelled in the calendar. */
  removed: boolean;
  start: Date | null;
  end: Date | null;
}

export type ChangeRead = { changes: EventChange[]; cursor: string } | { stale: true };

/** How far ahead a full read looks (Graph needs a window; Google reads everything from now). */
const FULL_READ_DAYS = 400;
/** A read is paged by the provider; more pages than this is a provider gone wrong, not a calendar. */
const MAX_PAGES = 200;

/** A provider failure while reading: retried at the next poll. */
export class ChangeReadError extends Error {}

function answer<T>(res: SafeResponse, what: string): T {
  if (!res.ok) throw new ChangeReadError(`${what} failed: ${providerMessage(res)}`);
  return res.json<T>();
}

interface GoogleEvent {
  id?: string;
  status?: string;
  start?: { dateTime?: string; date?: string };
  end?: { dateTime?: string; date?: string };
  extendedProperties?: { private?: { appointmentId?: string } };
}

const googleTime = (t: GoogleEvent['start']) => (t?.dateTime && !Number.isNaN(Date.parse(t.dateTime)) ? new Date(t.dateTime) : null);

function googleChange(e: GoogleEvent): EventChange | null {
  if (typeof e.id !== 'string' || !e.id) return null;
  const appointmentId = e.extendedProperties?.private?.appointmentId;
  return {
    eventId: e.id,
    appointmentId: typeof appointmentId === 'string' && appointmentId ? appointmentId : null,
    removed: e.status === 'cancelled',
    start: googleTime(e.start),
    end: googleTime(e.end),
  };
}

/** Google: what changed since `cursor` (a sync token), or everything from now when there is none. */
async function readGoogle(api: CalendarApi, cursor: string | null, now: Date): Promise<ChangeRead> {
  const eventsUrl = `${api.root}/calendars/${encodeURIComponent(api.calendarId ?? 'primary')}/events`;
  const first = new URLSearchParams(
    cursor ? { syncToken: cursor, showDeleted: 'true', singleEvents: 'true' } : { showDeleted: 'true', singleEvents: 'true', timeMin: now.toISOString() },
  );
  const changes: EventChange[] = [];
  let pageToken: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const params = new URLSearchParams(first);
    if (pageToken) params.set('pageToken', pageToken);
    const res = await api.call('GET', `${eventsUrl}?${params}`);
    if (res.status === 410 && cursor) return { stale: true };
    const body = answer<{ items?: GoogleEvent[]; nextPageToken?: string; nextSyncToken?: string }>(res, 'Reading Google Calendar changes');
    for (const item of body.items ?? []) {
      const change = googleChange(item);
      if (change) changes.push(change);
    }
    if (body.nextSyncToken) return { changes, cursor: body.nextSyncToken };
    if (!body.nextPageToken) throw new ChangeReadError('Google Calendar ended a list without a sync token');
    pageToken = body.nextPageToken;
  }
  throw new ChangeReadError(`Google Calendar gave more than ${MAX_PAGES} pages of changes`);
}

interface GraphEvent {
  id?: string;
  isCancelled?: boolean;
  '@removed'?: { reason?: string };
  start?: { dateTime?: string; timeZone?: string };
  end?: { dateTime?: string; timeZone?: string };
}

/** Graph's wall-clock time in its zone: UTC (its default answer) or the firm's zone (how events are written). */
function graphTime(t: GraphEvent['start']): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::(\d{2})(?:\.(\d+))?)?$/.exec(t?.dateTime?.replace(/Z$/, '') ?? '');
  if (!m) return null;
  const zone = t?.timeZone ?? 'UTC';
  const seconds = Number(m[3] ?? 0) * 1000 + Math.round(Number(`0.${m[4] ?? '0'}`) * 1000);
  if (zone === 'UTC') return new Date(Date.parse(`${m[1]}T${m[2]}:00Z`) + seconds);
  if (zone === GRAPH_FIRM_TIME_ZONE) return new Date(firmInstant(m[1]!, m[2]!).getTime() + seconds);
  return null;
}

/** Graph: the delta round from `cursor` (a delta link), or a first round over the window ahead. */
async function readGraph(api: CalendarApi, cursor: string | null, now: Date, graphBase: string): Promise<ChangeRead> {
  const base = api.calendarId ? `${api.root}/calendars/${encodeURIComponent(api.calendarId)}` : api.root;
  const window = new URLSearchParams({ startDateTime: now.toISOString(), endDateTime: new Date(now.getTime() + FULL_READ_DAYS * 86_400_000).toISOString() });
  let url = cursor ?? `${base}/calendarView/delta?${window}`;
  // A delta link is Graph's own URL (it may name the mailbox by its id): it must stay under Graph, where the token goes.
  const underGraph = (link: string) => link.startsWith(`${graphBase}/`);
  if (cursor && !underGraph(cursor)) return { stale: true };
  const changes: EventChange[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await api.call('GET', url);
    if (res.status === 410 && cursor) return { stale: true };
    const body = answer<{ value?: GraphEvent[]; '@odata.nextLink'?: string; '@odata.deltaLink'?: string }>(res, 'Reading Outlook changes');
    for (const e of body.value ?? []) {
      if (typeof e.id !== 'string' || !e.id) continue;
      changes.push({
        eventId: e.id,
        appointmentId: null,
        removed: Boolean(e['@removed']) || e.isCancelled === true,
        start: graphTime(e.start),
        end: graphTime(e.end),
      });
    }
    if (body['@odata.deltaLink']) return { changes, cursor: body['@odata.deltaLink'] };
    const next = body['@odata.nextLink'];
    if (!next || !underGraph(next)) throw new ChangeReadError('Outlook ended a delta round without a link under Microsoft Graph');
    url = next;
  }
  throw new ChangeReadError(`Outlook gave more than ${MAX_PAGES} pages of changes`);
}

export function readChanges(provider: ChangeProvider, api: CalendarApi, cursor: string | null, now: Date, graphBase: string): Promise<ChangeRead> {
  return provider === 'google' ? readGoogle(api, cursor, now) : readGraph(api, cursor, now, graphBase);
}

// ------------------------------------------------------------------------------------ Push channels

/** A channel as opened: what is stored (the secret sealed by the caller). */
export interface OpenedChannel {
  id: string;
  resourceId: string | null;
  expiresAt: Date;
}

/** How long a channel is asked for: a day, renewed with a quarter left (Graph allows under 7 days for events). */
export const CHANNEL_LIFETIME_MS = 24 * 60 * 60_000;
export const CHANNEL_RENEW_BEFORE_MS = 6 * 60 * 60_000;

/** Graph's resource for this integration's events, relative to the Graph root: 'me/events', 'users/{mailbox}/calendars/{id}/events'. */
function graphResource(api: CalendarApi, graphBase: string): string {
  const user = api.root.slice(graphBase.length + 1);
  return api.calendarId ? `${user}/calendars/${encodeURIComponent(api.calendarId)}/events` : `${user}/events`;
}

export async function openChannel(
  provider: ChangeProvider,
  api: CalendarApi,
  { address, secret, now, graphBase }: { address: string; secret: string; now: Date; graphBase: string },
): Promise<OpenedChannel> {
  const expiresAt = new Date(now.getTime() + CHANNEL_LIFETIME_MS);
  if (provider === 'google') {
    const url = `${api.root}/calendars/${encodeURIComponent(api.calendarId ?? 'primary')}/events/watch`;
    const body = { id: randomUUID(), type: 'web_hook', address, token: secret, params: { ttl: String(CHANNEL_LIFETIME_MS / 1000) } };
    const opened = answer<{ id?: string; resourceId?: string; expiration?: string }>(await api.call('POST', url, body), 'Opening a Google Calendar channel');
    if (opened.id !== body.id || !opened.resourceId) throw new ChangeReadError('Google Calendar answered the watch without the channel');
    const expiration = Number(opened.expiration);
    return { id: body.id, resourceId: opened.resourceId, expiresAt: Number.isFinite(expiration) && expiration > 0 ? new Date(expiration) : expiresAt };
  }
  const body = {
    changeType: 'updated,deleted',
    notificationUrl: address,
    resource: graphResource(api, graphBase),
    expirationDateTime: expiresAt.toISOString(),
    clientState: secret,
  };
  const made = answer<{ id?: string; expirationDateTime?: string }>(
    await api.call('POST', `${graphBase}/subscriptions`, body),
    'Subscribing to Outlook changes',
  );
  if (!made.id) throw new ChangeReadError('Outlook answered the subscription without its id');
  const expiry = Date.parse(made.expirationDateTime ?? '');
  return { id: made.id, resourceId: null, expiresAt: Number.isNaN(expiry) ? expiresAt : new Date(expiry) };
}

/** A Graph subscription made to last longer; false when it no longer exists (a new one is made). */
export async function renewSubscription(api: CalendarApi, graphBase: string, id: string, now: Date): Promise<Date | false> {
  const expiresAt = new Date(now.getTime() + CHANNEL_LIFETIME_MS);
  const res = await api.call('PATCH', `${graphBase}/subscriptions/${encodeURIComponent(id)}`, { expirationDateTime: expiresAt.toISOString() });
  if (res.status === 404) return false;
  answer(res, 'Renewing the Outlook subscription');
  return expiresAt;
}

/** Stops the channel; one the provider no longer knows is stopped already. */
export async function closeChannel(
  provider: ChangeProvider,
  api: CalendarApi,
  graphBase: string,
  channel: { id: string; resourceId: string | null },
): Promise<void> {
  const res =
    provider === 'google'
      ? await api.call('POST', `${api.root}/channels/stop`, { id: channel.id, resourceId: channel.resourceId })
      : await api.call('DELETE', `${graphBase}/subscriptions/${encodeURIComponent(channel.id)}`);
  if (res.ok || res.status === 404 || res.status === 410) return;
  throw new ChangeReadError(`Closing the ${provider === 'google' ? 'Google Calendar channel' : 'Outlook subscription'} failed: ${providerMessage(res)}`);
}
