/**
 * The composition module: the one place that wires the features to each other and to time. The
 * activity planners and listeners (mail, calendar sync), the delivery handlers by channel, and the timers of the
 * server's background work: delivering the outbox (at once after each
 * enqueue, and every few seconds for retries), queueing reminders as appointments come within 24
 * hours, announcing again what a crash left unannounced, fetching blog sources when they are
 * due, republishing when a scheduled post goes live, and reading back the changes the firm made in
 * its Google or Outlook calendar (every CALENDAR_POLL_SECONDS; with a push channel open, a slow safety
 * poll). `schedule: false` (tests) wires the listeners but runs nothing by itself: the test calls
 * runDeliveries() and the others when it wants them.
 * Several API containers may run this side by side: deliveries are claimed row by row, reminders are
 * deduplicated by key, and a source fetched twice stores its articles once.
 */
import { recoverLostAnnouncements } from './activity-recovery.ts';
import { backgroundFetchesSettled, fetchDueSources } from './blog-sources/blog-source-fetcher.ts';
import { calendarInbound } from './calendar-sync/calendar-inbound.ts';
import { calendarHandler, calendarListener, calendarPlanner } from './calendar-sync/calendar-sync.ts';
import { createDeliveryRunner } from './deliveries/deliveries.ts';
import type { Deps } from './deps.ts';
import { emailHandler, mailListener, mailPlanner, scanReminders } from './mail/mail.ts';
import { deleteExpiredIdempotencyKeys } from './http/idempotency.ts';
import { pruneContentChanges } from './content-bus.ts';
import { scheduledPublishing } from './blog-posts/scheduled-publishing.ts';

export interface BackgroundWork {
  runDeliveries(): Promise<number>;
  scanReminders(): Promise<number>;
  /** Announces again the bookings and messages whose announcement a crash lost (api/activity-recovery.ts). */
  recoverLostAnnouncements(): Promise<number>;
  fetchDueSources(): Promise<number>;
  /** Republishes what the scheduled posts that went live since the last call show; their slugs. */
  publishDuePosts(): Promise<string[]>;
  /** Reads the active calendar's changes now and applies them (api/calendar-sync/calendar-inbound.ts); how many appointments changed. */
  syncCalendarChanges(): Promise<number>;
  /** Stops the timers and waits for work in progress. */
  stop(): Promise<void>;
}

const DELIVERY_POLL_MS = 5_000;
const REMINDER_SCAN_MS = 60_000;
const FEED_CHECK_MS = 60_000;

const HOUSEKEEPING_MS = 60 * 60_000;

export function startBackgroundWork(deps: Deps, { schedule }: { schedule: boolean }): BackgroundWork {
  const unsubscribe = [
    // A booking's and a message's deliveries commit with them (decision 022); an admin's changes are heard after.
    deps.activity.planWith(mailPlanner(deps)),
    deps.activity.planWith(calendarPlanner(deps)),
    deps.activity.subscribe(mailListener(deps)),
    deps.activity.subscribe(calendarListener(deps)),
    // What a planned activity committed is delivered at once, like an enqueue.
    deps.activity.subscribe((activity) => {
      if (activity.type === 'appointment-booked' || activity.type === 'contact-received') deps.deliveries.queued();
    }),
  ];
  // Set by stop(): a delivery run in progress ends after the deliveries in hand, so a backlog of
  // hundreds cannot hold a shutdown; what is left is delivered after the next start.
  let halted = false;
  const inbound = calendarInbound(deps);
  // Its own timer, to the moment: each container republishes its own pages then.
  const publishing = scheduledPublishing(deps, { timers: schedule });
  const runner = createDeliveryRunner({
    database: deps.database,
    clock: deps.clock,
    log: deps.log,
    handlers: { email: emailHandler(deps), calendar: calendarHandler(deps) },
    stopped: () => halted,
  });
  const work: BackgroundWork = {
    runDeliveries: () => runner.runDue(),
    scanReminders: () => scanReminders(deps),
    recoverLostAnnouncements: () => recoverLostAnnouncements(deps),
    fetchDueSources: () => fetchDueSources(deps),
    publishDuePosts: () => publishing.publishDue(),
    syncCalendarChanges: () => inbound.syncActive(),
    async stop() {
      halted = true;
      await inbound.settled();
      publishing.stop();
      for (const u of unsubscribe) u();
      // A new source's first fetch (started by its create) may still be running.
      await backgroundFetchesSettled(deps);
    },
  };
  if (!schedule) return work;

  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  const run = (name: string, job: () => Promise<unknown>) => {
    if (stopped) return;
    const p = job()
      .catch((err) => deps.log.error('background job failed', { job: name, err: err instanceof Error ? err.message : String(err) }))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  const every = (ms: number, name: string, job: () => Promise<unknown>) => {
    const timer = setInterval(() => run(name, job), ms);
    timer.unref();
    return timer;
  };
  const timers = [
    every(DELIVERY_POLL_MS, 'deliveries', work.runDeliveries),
    every(REMINDER_SCAN_MS, 'reminders', async () => {
      if (await work.scanReminders()) await work.runDeliveries();
    }),
    // Its announcements enqueue, which runs the deliveries.
    every(REMINDER_SCAN_MS, 'lost-announcements', work.recoverLostAnnouncements),
    every(FEED_CHECK_MS, 'blog-sources', work.fetchDueSources),
    // Ticks at the poll interval; reads only when due (with a push channel, at the safety interval).
    every(deps.integrations.calendarPollSeconds * 1000, 'calendar-changes', () => inbound.syncActive({ onlyIfDue: true })),
    // Expired idempotency keys, ended identity sessions, quiet lockout counters, old content changes,
    // held mail past its days or its count (decision 042).
    every(HOUSEKEEPING_MS, 'housekeeping', async () => {
      await deleteExpiredIdempotencyKeys(deps.database, deps.clock.now());
      await pruneContentChanges(deps.database, deps.clock.now());
      await deps.embeddedIdentity?.sweep();
      await deps.outbox.sweep();
    }),
  ];
  unsubscribe.push(deps.deliveries.onEnqueued(() => setImmediate(() => run('deliveries', work.runDeliveries))));
  // Once at start: what came due while the server was down, and what its stop left unannounced.
  setImmediate(() => {
    run('lost-announcements', work.recoverLostAnnouncements);
    run('reminders', async () => {
      await work.scanReminders();
      await work.runDeliveries();
    });
    run('blog-sources', work.fetchDueSources);
  });
  return {
    ...work,
    async stop() {
      stopped = true;
      halted = true;
      publishing.stop();
      for (const t of timers) clearInterval(t);
      for (const u of unsubscribe) u();
      await Promise.allSettled([...inFlight]);
      await inbound.settled();
      await backgroundFetchesSettled(deps);
      // Codes the identity service stores and mails just after answering (docs/decisions/039).
      await deps.embeddedIdentity?.settled();
    },
  };
}
