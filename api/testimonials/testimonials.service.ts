import type { z } from 'zod';
import type { testimonialInput, testimonialUpdate } from '../../src/shared/schemas/testimonials.ts';
import { isSeededSampleTestimonial } from '../../db/seed/sample-content.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { testimonialsRepository } from './testimonials.repository.ts';

export function testimonialsService({ database, events }: Pick<Deps, 'database' | 'events'>) {
  const repo = testimonialsRepository(database);
  const changed = () => events.changed({ topic: 'testimonials' });
  return {
    listPublished: repo.listPublished,
    /** Every testimonial; `isSample`: still the seed's development text (docs/decisions/029). */
    listAll: async () => (await repo.listAll()).map((row) => ({ ...row, isSample: isSeededSampleTestimonial(row) })),
    async create(input: z.output<typeof testimonialInput>) {
      const row = await repo.create(input);
      changed();
      return row;
    },
    async update(id: string, input: z.output<typeof testimonialUpdate>) {
      const row = await repo.update(id, input);
      if (!row) throw notFound('Testimonial not found');
      changed();
      return row;
    },
    async remove(id: string) {
      if (!(await repo.remove(id))) throw notFound('Testimonial not found');
      changed();
    },
  };
}
