/**
 * The calendar log (issue 20, decision 036): what the firm's calendars did that the admin should know
 * and no request could tell them, shown on the Integrations screen's Calendar tab. A provider that
 * could not be read (the site went on taking bookings on its own data), the moment it answered again,
 * a Calendly booking that landed on time already booked here. One row per outage, not one per request:
 * an 'unreachable' notice stays open and counts its repeats until the provider answers again.
 * Names times and consultation types, never a client's personal data.
 */
import type { Deps } from '../deps.ts';
import { calendarNoticesRepository, type CalendarNoticeKind, type CalendarNoticeRow } from './calendar-notices.repository.ts';

export type { CalendarNoticeKind };

export interface CalendarNotice {
  /** The calendar integration it is about (null: none in particular). */
  integrationId: string | null;
  /** 'Google Calendar', 'Outlook', 'Calendly'. */
  provider: string;
  kind: CalendarNoticeKind;
  message: string;
  /** true: a state that lasts (an outage) until ended; its repeats are counted on one row. false: a single event. */
  ongoing?: boolean;
}

/** How many entries the Calendar log shows. */
const LOG_LENGTH = 50;

/** Records a notice in the calendar log; an ongoing one already open for this integration and kind is counted again instead. */
export async function recordCalendarNotice(deps: Pick<Deps, 'database' | 'clock'>, notice: CalendarNotice): Promise<void> {
  const repo = calendarNoticesRepository(deps.database);
  const at = deps.clock.now();
  const ongoing = notice.ongoing ?? false;
  if (ongoing && (await repo.repeat(notice.integrationId, notice.kind, notice.message, at))) return;
  await repo.insert({ ...notice, at, ongoing });
}

/**
 * Ends the open notice of this kind (an outage over), if there is one, and logs `after` (what
 * happened: 'reachable again') with it. false when none was open.
 */
export async function endCalendarNotice(
  deps: Pick<Deps, 'database' | 'clock'>,
  integrationId: string,
  kind: CalendarNoticeKind,
  after: (ended: CalendarNoticeRow) => Omit<CalendarNotice, 'integrationId' | 'ongoing'>,
): Promise<boolean> {
  const repo = calendarNoticesRepository(deps.database);
  const at = deps.clock.now();
  const [ended] = await repo.end(integrationId, kind, at);
  if (!ended) return false;
  await repo.insert({ integrationId, ...after(ended), at, ongoing: false });
  return true;
}

export interface CalendarLogEntry {
  id: string;
  integrationId: string | null;
  provider: string;
  kind: CalendarNoticeKind;
  message: string;
  firstSeenAt: Date;
  lastSeenAt: Date;
  count: number;
  endedAt: Date | null;
}

/** The Calendar log, latest first. */
export async function calendarLog(deps: Pick<Deps, 'database'>): Promise<CalendarLogEntry[]> {
  const rows = await calendarNoticesRepository(deps.database).latest(LOG_LENGTH);
  return rows.map((r) => ({ ...r, kind: r.kind as CalendarNoticeKind }));
}
