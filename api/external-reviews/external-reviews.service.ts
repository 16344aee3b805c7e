import type { z } from 'zod';
import type { externalReviewInput, externalReviewUpdate } from '../../src/shared/schemas/external-reviews.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { externalReviewsRepository } from './external-reviews.repository.ts';

/** The firm's records of its reviews on other sites (docs/decisions/029); the home page shows the visible ones. */
export function externalReviewsService({ database, events }: Pick<Deps, 'database' | 'events'>) {
  const repo = externalReviewsRepository(database);
  // The home page (a published page) shows them: it is republished, and the CDN purged, on every change.
  const changed = () => events.changed({ topic: 'external-reviews' });
  return {
    listVisible: repo.listVisible,
    listAll: repo.listAll,
    async create(input: z.output<typeof externalReviewInput>) {
      const row = await repo.create(input);
      changed();
      return row;
    },
    async update(id: string, input: z.output<typeof externalReviewUpdate>) {
      const row = await repo.update(id, input);
      if (!row) throw notFound('External review not found');
      changed();
      return row;
    },
    async remove(id: string) {
      if (!(await repo.remove(id))) throw notFound('External review not found');
      changed();
    },
  };
}
