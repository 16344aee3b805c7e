import type { z } from 'zod';
import { probateFeeSchedule } from '../../src/config/probate.ts';
import { estimateProbate } from '../../src/shared/probate.ts';
import { probateCalculationInput } from '../../src/shared/schemas/probate-calculations.ts';
import type { Deps } from '../deps.ts';
import { badRequest } from '../http/errors.ts';
import { honeypot } from '../http/honeypot.ts';
import { idempotency, storedAnswer } from '../http/idempotency.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { router } from '../http/routes.ts';
import { jsonBody } from '../http/validate.ts';
import { probateCalculationsRepository } from './probate-calculations.repository.ts';

type Calculation = z.output<typeof probateCalculationInput>;
const figures = ['attorneyFees', 'executorFees', 'courtCosts', 'totalProbate', 'trustCost', 'savings'] as const;

/**
 * A saved calculation must be one the firm's schedule produces for that estate value: the record may
 * be shown back to the visitor or the firm, so it cannot hold figures we never quoted.
 */
function assertMatchesSchedule(calc: Calculation) {
  const expected = estimateProbate(Number(calc.estateValue), Number(calc.realEstateValue), probateFeeSchedule);
  // Exact comparison: the schedule quotes whole dollars, so "27500.40" is not the 27,500 we quoted.
  const wrong = figures.filter((key) => Number(calc[key]) !== expected[key]);
  if (wrong.length) {
    throw badRequest(
      'These figures do not match the fee schedule for this estate value; please recalculate.',
      Object.fromEntries(wrong.map((key) => [key, `Expected ${expected[key]}`])),
    );
  }
}

export function probateCalculationsRoutes(deps: Pick<Deps, 'database' | 'clock' | 'log' | 'rateLimits'>) {
  const repo = probateCalculationsRepository(deps.database);
  return {
    // Limited per client, and a bot's save (the honeypot filled) is answered alike and kept nowhere.
    // Decision 016: a retry with the same Idempotency-Key gets this answer again, not a second row.
    public: router().post('/probate-calculator', rateLimit(deps, 'calculator'), idempotency(deps), jsonBody(probateCalculationInput), async (c) => {
      const { caught, input } = honeypot(c, c.req.valid('json'), deps.log);
      if (caught) return c.json({ id: crypto.randomUUID(), createdAt: deps.clock.now() }, 201);
      assertMatchesSchedule(input);
      const values = { ...input, id: crypto.randomUUID(), createdAt: deps.clock.now() };
      const answer = { id: values.id, createdAt: values.createdAt };
      await repo.create(values, storedAnswer(c, 201, answer));
      return c.json(answer, 201);
    }),
  };
}
