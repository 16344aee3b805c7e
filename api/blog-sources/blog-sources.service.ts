import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { blogSourceInput } from '../../src/shared/schemas/integrations.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { checkOutboundUrl, OutboundError } from '../http/outbound-fetch.ts';
import { sealConfig, writeBackErrors } from '../crypto/sealed-config.ts';
import { fetchInBackground, fetchSource, type FetchDeps } from './blog-source-fetcher.ts';
import { blogSourcesRepository } from './blog-sources.repository.ts';

type BlogSourceInput = z.output<typeof blogSourceInput>;

export function blogSourcesService(deps: FetchDeps) {
  const { database, events, integrations, clock, secrets } = deps;
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
      // Nothing shown masked may come back as the secret (api/crypto/sealed-config.ts).
      const writeBack = writeBackErrors({ url: ['URL', input.url], config: ['Configuration', input.config] });
      if (writeBack) throw badRequest('Please check the highlighted fields.', writeBack);
      let refused: string | null = null;
      try {
        checkOutboundUrl(input.url, integrations.allowPrivateNetworks);
      } catch (err) {
        if (!(err instanceof OutboundError)) throw err;
        refused = err.message;
      }
      // The id is chosen here: the config's secrets are sealed for this row before it is written.
      const id = randomUUID();
      const config = sealConfig(secrets, input.config, 'blog-source', { table: 'blog-sources', id });
      const row = await repo.create({ ...input, id, config, createdAt: clock.now(), ...(refused ? { lastError: refused, lastFetched: clock.now() } : {}) });
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
