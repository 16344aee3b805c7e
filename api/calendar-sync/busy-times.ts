/**
 * Busy times (issue 20 item 2, decision 036): the active Google or Outlook calendar's busy periods,
 * which the booking modal's times leave out and a booking is refused on, as on Cal.com. An attorney's
 * court date in the firm's calendar stops a visitor booking that hour.
 *
 *   google   POST {root}/freeBusy { timeMin, timeMax, timeZone, items: [{ id: calendarId }, { id: 'primary' }] }
 *            -> calendars[id].busy; a per-calendar `errors` entry is a failure, not "free".
 *   outlook  GET {root}/calendarView and {root}/calendars/{id}/calendarView ?startDateTime&endDateTime&$select=showAs,start,end,isCancelled
 *            with Prefer: outlook.timezone="UTC", following @odata.nextLink; busy: not cancelled and
 *            showAs neither 'free' nor 'workingElsewhere' (a working-location marker: where the attorney
 *            works that day, not a commitment; Google's freeBusy leaves its working-location events out too).
 *
 * Both the calendar the appointments go to and the account's main calendar are read: an admin who
 * sends consultations to a "Consultations" calendar still keeps the attorney's court dates in the
 * main one (Cal.com checks the primary calendar for conflicts by default, too).
 *
 * Only a connected integration is read (its config holds a refresh_token, or Outlook app-only with a
 * user_email). Each container keeps an answer for a minute per integration and time range; the key
 * holds the integration's updatedAt, so a change of its settings (or another integration made
 * active) is read afresh at once, in every container, at the cost of the one query for the active
 * integration each availability already needs. A booking reads afresh (`fresh`), never from memory.
 *
 * A provider that cannot be read (no answer within 3 s, 5xx, network, token refused) does not stop
 * the site: the answer is "no busy times known" and bookings go on with the site's own data; the
 * calendar log says so (one notice per outage, calendar-notices.ts), and this container does not ask
 * that provider again for 30 s, so an outage does not slow every visitor. The first read that works
 * again ends the notice with a 'reachable again' entry.
 */
import type { BusyInterval } from '../../src/shared/booking/availability.ts';
import { FIRM_TIME_ZONE, whenLabel } from '../../src/shared/firm-time.ts';
import { UnreadableSecretError } from '../crypto/sealed-config.ts';
import type { ContentEvents } from '../content-events.ts';
import { PermanentDeliveryError } from '../deliveries/deliveries.ts';
import type { Deps } from '../deps.ts';
import { OutboundError } from '../http/outbound-fetch.ts';
import { endCalendarNotice, recordCalendarNotice } from './calendar-notices.ts';
import { calendarSyncRepository, openSecrets, type CalendarSetting } from './calendar-sync.repository.ts';
import { googleCalendar } from './google.ts';
import { outlookCalendar } from './outlook.ts';
import { providerMessage, restCalendar, tokenCacheFor, type CalendarApi } from './rest-calendar.ts';

/** How long an answer is kept per integration and range. */
export const BUSY_CACHE_MS = 60_000;
/** After a failure, how long this container answers from its own data without asking the provider. */
export const BUSY_RETRY_AFTER_MS = 30_000;
/** A visitor waits for the calendar this long at most per request (the token's, then the read). */
export const BUSY_TIMEOUT_MS = 3_000;
/** Graph pages followed at most (a day's events fit in one or two). */
const MAX_PAGES = 20;

export type BusyDeps = Pick<Deps, 'database' | 'clock' | 'events' | 'integrations' | 'secrets' | 'log'>;

/** A provider's busy times could not be read; `reason` says why, for the calendar log. */
class BusyReadError extends Error {}

interface Memory {
  answers: Map<string, { at: number; busy: BusyInterval[] }>;
  /** Integration id -> when this container may ask it again after a failure. */
  resting: Map<string, number>;
}

// One per app (per its content events), as the booking rules are (api/booking-rules/booking-rules.service.ts).
const memories = new WeakMap<ContentEvents, Memory>();

function memoryFor(deps: BusyDeps): Memory {
  let memory = memories.get(deps.events);
  if (!memory) {
    memory = { answers: new Map(), resting: new Map() };
    memories.set(deps.events, memory);
  }
  return memory;
}

const labels: Record<string, string> = { google: 'Google Calendar', outlook: 'Outlook' };

/** Whether this integration's config lets the server read its calendar without a browser. */
function connected(setting: CalendarSetting): boolean {
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(setting.config) as Record<string, unknown>;
  } catch {
    return false;
  }
  const has = (key: string) => typeof config[key] === 'string' && (config[key] as string).trim() !== '';
  if (setting.provider === 'google') return has('refresh_token');
  if (setting.provider === 'outlook') return has('refresh_token') || has('user_email');
  return false;
}

/** An instant of the provider's answer, or a failure (a calendar's busy time misread would let a booking through unseen). */
function instant(value: unknown, utc = false): Date {
  if (typeof value !== 'string') throw new BusyReadError('its answer had a busy period without a time');
  // Graph's dateTime has no offset: with Prefer outlook.timezone="UTC" it is UTC.
  const text = utc && !/(Z|[+-]\d\d:?\d\d)$/i.test(value) ? `${value}Z` : value;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw new BusyReadError(`its answer had a busy period at "${value.slice(0, 40)}", which is not a time`);
  return date;
}

async function googleBusy(api: CalendarApi, from: Date, to: Date): Promise<BusyInterval[]> {
  const calendarIds = [...new Set([api.calendarId ?? 'primary', 'primary'])];
  const res = await api.call('POST', `${api.root}/freeBusy`, {
    timeMin: from.toISOString(),
    timeMax: to.toISOString(),
    timeZone: FIRM_TIME_ZONE,
    items: calendarIds.map((id) => ({ id })),
  });
  if (!res.ok) throw new BusyReadError(`the freeBusy request answered ${providerMessage(res)}`);
  const body = res.json<{ calendars?: Record<string, { busy?: { start?: unknown; end?: unknown }[]; errors?: { reason?: string }[] }> }>();
  return calendarIds.flatMap((calendarId) => {
    const calendar = body.calendars?.[calendarId];
    if (!calendar) throw new BusyReadError(`its answer did not include the calendar "${calendarId}"`);
    if (calendar.errors?.length) {
      throw new BusyReadError(
        `it could not give the busy times of the calendar "${calendarId}" (${calendar.errors.map((e) => e.reason ?? 'error').join(', ')})`,
      );
    }
    return (calendar.busy ?? []).map((b) => ({ start: instant(b.start), end: instant(b.end) }));
  });
}

interface GraphEventTimes {
  showAs?: string;
  isCancelled?: boolean;
  start?: { dateTime?: string; timeZone?: string };
  end?: { dateTime?: string; timeZone?: string };
}

/** What Outlook shows as free time: free, or a working-location marker (see the header). */
const notBusy = new Set(['free', 'workingElsewhere']);

async function outlookBusy(api: CalendarApi, from: Date, to: Date): Promise<BusyInterval[]> {
  const main = `${api.root}/calendarView`;
  const chosen = api.calendarId ? `${api.root}/calendars/${encodeURIComponent(api.calendarId)}/calendarView` : null;
  const views = await Promise.all([main, ...(chosen ? [chosen] : [])].map((collection) => outlookCalendarView(api, collection, from, to)));
  return views.flat();
}

async function outlookCalendarView(api: CalendarApi, collection: string, from: Date, to: Date): Promise<BusyInterval[]> {
  const query = new URLSearchParams({
    startDateTime: from.toISOString(),
    endDateTime: to.toISOString(),
    $select: 'showAs,start,end,isCancelled',
    $top: '100',
  });
  let url: string | undefined = `${collection}?${query}`;
  const busy: BusyInterval[] = [];
  for (let page = 0; url; page++) {
    if (page >= MAX_PAGES) throw new BusyReadError(`its calendar view had more than ${MAX_PAGES} pages`);
    const res = await api.call('GET', url, undefined, { prefer: 'outlook.timezone="UTC"' });
    if (!res.ok) throw new BusyReadError(`the calendarView request answered ${providerMessage(res)}`);
    const body = res.json<{ value?: GraphEventTimes[]; '@odata.nextLink'?: string }>();
    for (const event of body.value ?? []) {
      if (event.isCancelled || notBusy.has(event.showAs ?? 'busy')) continue;
      for (const zone of [event.start?.timeZone, event.end?.timeZone]) {
        if (zone && zone !== 'UTC') throw new BusyReadError(`its calendar view gave times in "${zone}" instead of UTC`);
      }
      busy.push({ start: instant(event.start?.dateTime, true), end: instant(event.end?.dateTime, true) });
    }
    url = body['@odata.nextLink'];
  }
  return busy;
}

/** Why a read failed, for the admin. */
function reasonOf(err: unknown): string {
  if (err instanceof BusyReadError) return err.message;
  if (err instanceof OutboundError) return err.failure === 'timeout' ? `it did not answer within ${BUSY_TIMEOUT_MS / 1000} seconds` : err.message;
  if (err instanceof PermanentDeliveryError || err instanceof UnreadableSecretError) return err.message;
  if (err instanceof SyntaxError) return 'its answer was not JSON';
  return err instanceof Error ? err.message : String(err);
}

export function calendarBusyTimes(deps: BusyDeps) {
  const settings = calendarSyncRepository(deps.database);
  const memory = memoryFor(deps);
  const options = { timeoutMs: BUSY_TIMEOUT_MS };
  const tokens = tokenCacheFor(deps);
  const google = restCalendar(deps, tokens, googleCalendar, options);
  const outlook = restCalendar(deps, tokens, outlookCalendar, options);

  const read = (setting: CalendarSetting, from: Date, to: Date) =>
    setting.provider === 'google' ? googleBusy(google.forSetting(setting), from, to) : outlookBusy(outlook.forSetting(setting), from, to);

  /** Never fails the visitor's request: the log is the admin's, the booking goes on. */
  async function note(what: string, work: () => Promise<unknown>) {
    try {
      await work();
    } catch (err) {
      deps.log.error(`calendar log: ${what} could not be recorded`, { err: (err as Error).message });
    }
  }

  return {
    /**
     * The busy periods overlapping [from, to) of the active calendar, if it is a connected Google or
     * Outlook one; [] when there is none, or when it cannot be read now (the calendar log says so).
     * `fresh`: asked of the provider whatever this container kept (a booking's check).
     */
    async during(from: Date, to: Date, { fresh = false }: { fresh?: boolean } = {}): Promise<BusyInterval[]> {
      const active = await settings.activeSetting();
      if (!active || !(active.provider in labels)) return [];
      const label = labels[active.provider]!;
      const now = deps.clock.now().getTime();
      if ((memory.resting.get(active.id) ?? 0) > now) return [];
      const key = `${active.id}:${active.updatedAt.getTime()}:${from.toISOString()}:${to.toISOString()}`;
      const kept = memory.answers.get(key);
      if (!fresh && kept && now - kept.at < BUSY_CACHE_MS) return kept.busy;
      let busy: BusyInterval[];
      try {
        const setting = openSecrets(deps.secrets, active);
        if (!connected(setting)) return [];
        busy = (await read(setting, from, to)).filter((b) => b.start < to && from < b.end && b.start < b.end);
      } catch (err) {
        memory.resting.set(active.id, now + BUSY_RETRY_AFTER_MS);
        const reason = reasonOf(err);
        deps.log.warn('calendar busy times unreadable', { integrationId: active.id, provider: active.provider, reason });
        await note('an outage', () =>
          recordCalendarNotice(deps, {
            integrationId: active.id,
            provider: label,
            kind: 'unreachable',
            ongoing: true,
            message: `${label} could not be read: ${reason}. Until it answers, bookings are taken on the site's own appointments only, so a time busy in the calendar can be booked.`,
          }),
        );
        return [];
      }
      memory.resting.delete(active.id);
      // Forget answers past their minute, so the map holds only the ranges being asked about.
      for (const [k, v] of memory.answers) if (now - v.at >= BUSY_CACHE_MS) memory.answers.delete(k);
      memory.answers.set(key, { at: now, busy });
      await note('a recovery', () =>
        endCalendarNotice(deps, active.id, 'unreachable', (outage) => ({
          provider: label,
          kind: 'reachable-again',
          message: `${label} is reachable again: its busy times block slots again. It could not be read ${outage.count === 1 ? 'once' : `${outage.count} times`} since ${whenLabel(outage.firstSeenAt)}.`,
        })),
      );
      return busy;
    },
  };
}
