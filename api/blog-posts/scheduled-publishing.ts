/**
 * Scheduled posts (issue 19, item 2): a published post whose publish date is still to come is shown
 * nowhere until that moment (the repository's `live`); at that moment every page and feed that lists
 * it is republished, on every container. Each container keeps its own timer for the next such moment
 * and announces the change to itself only (`events.deliver`): the pages it stores and the CDN keys it
 * purges are its own, so there is nothing to elect or claim, and a container that was down catches up
 * when it starts (it renders from the database as it is). The timer is set again whenever posts change.
 */
import type { Deps } from '../deps.ts';
import { blogPostsRepository } from './blog-posts.repository.ts';

/** A timer longer than this is set again when it ends (timers cannot wait for weeks, and clocks drift). */
const LONGEST_WAIT_MS = 60 * 60 * 1000;
/** After the moment, so the database's clock and this one agree that it has passed. */
const MARGIN_MS = 250;

export interface ScheduledPublishing {
  /** Announces the posts that went live since the last call, and sets the timer for the next. */
  publishDue(): Promise<string[]>;
  stop(): void;
}

export function scheduledPublishing(deps: Pick<Deps, 'database' | 'events' | 'clock' | 'log'>, { timers }: { timers: boolean }): ScheduledPublishing {
  const repo = blogPostsRepository(deps.database);
  let since = deps.clock.now();
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
  void plan().catch((err: unknown) => deps.log.error('scheduled publishing failed', { err: String(err) }));

  return {
    publishDue,
    stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
    },
  };
}
