/**
 * Scheduled posts (issue 19, item 2): a published post whose publish date is still to come is shown
 * nowhere until that moment (the repository's `live`); at that moment every page and feed that lists
 * it is republished, on every container. Each container keeps its own timer for the next such moment
 * and announces the change to itself only (`events.deliver`): the pages it stores and the CDN keys it
 * purges are its own, so there is nothing to elect or claim. The timer is set again whenever posts
 * change. A container that starts renders from the database as it is, and announces what went live
 * in the day before it started, so a CDN that kept a page through a moment when every container was
 * down is purged.
 */
import type { Deps } from '../deps.ts';
import { blogPostsRepository } from './blog-posts.repository.ts';

/** A timer longer than this is set again when it ends (timers cannot wait for weeks, and clocks drift). */
const LONGEST_WAIT_MS = 60 * 60 * 1000;
/** After the moment, so the database's clock and this one agree that it has passed. */
const MARGIN_MS = 250;
/** How far back a starting container looks for posts that went live while it was not running. */
const CATCH_UP_MS = 24 * 60 * 60 * 1000;

export interface ScheduledPublishing {
  /** Announces the posts that went live since the last call, and sets the timer for the next. */
  publishDue(): Promise<string[]>;
  stop(): void;
}

export function scheduledPublishing(deps: Pick<Deps, 'database' | 'events' | 'clock' | 'log'>, { timers }: { timers: boolean }): ScheduledPublishing {
  const repo = blogPostsRepository(deps.database);
  let since = new Date(deps.clock.now().getTime() - CATCH_UP_MS);
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  async function plan() {
    if (!timers || stopped) return;
    const next = await repo.nextScheduled(deps.clock.now());
    if (timer) clearTimeout(timer);
    timer = null;
    if (!next || stopped) return;
    const wait = Math.min(Math.max(next.getTime() - deps.clock.now().getTime(), 0) + MARGIN_MS, LONGEST_WAIT_MS);
    timer = setTimeout(() => {
      timer = null;
      publishDue().catch((err: unknown) => deps.log.error('scheduled publishing failed', { err: String(err) }));
    }, wait);
    timer.unref();
  }

  async function publishDue(): Promise<string[]> {
    const now = deps.clock.now();
    const slugs = await repo.wentLive(since, now);
    since = now;
    if (slugs.length) {
      deps.log.info('scheduled posts went live', { count: slugs.length });
      // Heard here only: every container does this at the same moment for its own pages.
      await deps.events.deliver({ topic: 'blog-posts', keys: slugs });
    }
    await plan();
    return slugs;
  }

  // An admin's change anywhere may add, move or remove the next moment.
  const unsubscribe = deps.events.subscribe((change) => {
    if (change.topic === 'blog-posts' || change.topic === 'site') return plan();
  });
  if (timers) void publishDue().catch((err: unknown) => deps.log.error('scheduled publishing failed', { err: String(err) }));

  return {
    publishDue,
    stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
    },
  };
}
