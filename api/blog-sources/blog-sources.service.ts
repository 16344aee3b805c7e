import type { z } from 'zod';
import type { blogSourceInput } from '../../src/shared/schemas/integrations.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { checkOutboundUrl, OutboundError } from '../integrations/safe-fetch.ts';
import { fetchInBackground, fetchSource } from './blog-source-fetcher.ts';
import { blogSourcesRepository } from './blog-sources.repository.ts';

type BlogSourceInput = z.output<typeof blogSourceInput>;

export function blogSourcesService(deps: Deps) {
  const { database, events, integrations, clock } = deps;
  const repo = blogSourcesRepository(database);

  return {
    list: repo.listWithCounts,

    /**
     * SPEC §4 Blog source: created active, then fetched at once in the background (the 201 does not
     * wait for the feed). An address that can never be fetched here (a private or loopback literal
     * while those are refused) is still stored, as the admin typed it, with the reason as its
     * lastError straight away: the same rule the fetch applies to names that resolve to such
     * addresses, which only a fetch can find out.
     */
    async create(input: BlogSourceInput) {
      let refused: string | null = null;
      try {
        checkOutboundUrl(input.url, integrations.allowPrivateNetworks);
      } catch (err) {
        if (!(err instanceof OutboundError)) throw err;
        refused = err.message;
      }
      const row = await repo.create({ ...input, ...(refused ? { lastError: refused, lastFetched: clock.now() } : {}) });
      if (!refused) fetchInBackground(deps, row.id);
      return { ...row, articleCount: 0 };
    },

    /** The admin's "Fetch now": the source after the attempt (its lastError says how it went). */
    async fetchNow(id: string) {
      const outcome = await fetchSource(deps, id);
      if (!outcome) throw notFound('Blog source not found');
      return { ...outcome.source, articleCount: await repo.countArticles(id) };
    },

    async remove(id: string) {
      if (!(await repo.remove(id))) throw notFound('Blog source not found');
      events.changed({ topic: 'external-articles' });
    },
  };
}
