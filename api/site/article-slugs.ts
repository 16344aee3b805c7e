/**
 * Which /blog/{slug} pages exist: a published post's slug, an earlier slug that redirects to one, a
 * built-in sample. Held in memory so that an unknown slug answers the one stored 'Article Not Found'
 * page without a render or a database query (security review: a flood of random slugs must cost no
 * more than a static 404). Loaded at start and again after every change to the posts; the slugs a
 * change names count as existing at once, until a load started after that change replaces them.
 */
import type { Logger } from '../logger.ts';

export interface ArticleSlugs {
  /** False only for a slug known not to name a page; true (render it) while nothing is loaded. */
  exists(slug: string): boolean;
  /** A change touched these slugs: they may name pages now. Resolves once the set is loaded again. */
  changed(keys?: readonly string[]): Promise<void>;
  /** Loads the set again (at start, and after a restore or direct database edits). */
  reload(): Promise<void>;
}

/** After a failed load, visitors' requests try again at most this often. */
const RETRY_MS = 1000;

export function createArticleSlugs(load: () => Promise<Iterable<string>>, log: Logger): ArticleSlugs {
  let known: Set<string> | null = null;
  /** Named by changes the loaded set may predate. */
  const pending = new Set<string>();
  let changes = 0;
  let loadedAt = -1;
  let loading: Promise<void> | null = null;
  let failedAt = -Infinity;

  const reload = (): Promise<void> =>
    (loading ??= (async () => {
      try {
        while (loadedAt < changes) {
          const at = changes;
          known = new Set(await load());
          loadedAt = at;
          // Every pending slug was named before this load started: the set now says what it names.
          if (at === changes) pending.clear();
        }
      } catch (err) {
        failedAt = performance.now();
        log.error('article slugs could not be loaded', { err: String(err) });
        throw err;
      } finally {
        loading = null;
      }
    })());

  return {
    exists(slug) {
      if (known) return known.has(slug) || pending.has(slug);
      if (!loading && performance.now() - failedAt >= RETRY_MS) reload().catch(() => {});
      return true;
    },
    changed(keys = []) {
      for (const key of keys) pending.add(key);
      changes++;
      return reload();
    },
    reload() {
      changes++;
      return reload();
    },
  };
}
