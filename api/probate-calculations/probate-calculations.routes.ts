import type { z } from 'zod';
import { estimateProbate } from '../../src/shared/probate.ts';
import { probateCalculationInput } from '../../src/shared/schemas/probate-calculations.ts';
import type { Deps } from '../deps.ts';
import { badRequest } from '../http/errors.ts';
import { router, type FeatureRoutes } from '../http/routes.ts';
import { jsonBody } from '../http/validate.ts';

type Calculation = z.output<typeof probateCalculationInput>;
const figures = ['attorneyFees', 'executorFees', 'courtCosts', 'totalProbate', 'trustCost', 'savings'] as const;

/**
 * A saved calculation must be one the firm's schedule produces for that estate value: the record may
 * be shown back to the visitor or the firm, so it cannot hold figures we never quoted.
 */
function assertMatchesSchedule(calc: Calculation) {
  const expected = estimateProbate(Number(calc.estateValue), Number(calc.realEstateValue));
  const wrong = figures.filter((key) => Math.round(Number(calc[key])) !== expected[key]);
  if (wrong.length) {
    throw badRequest(
      'These figures do not match the fee schedule for this estate value; please recalculate.',
      Object.fromEntries(wrong.map((key) => [key, `Expected ${expected[key]}`])),
    );
  }
}

export function probateCalculationsRoutes({ database: { db, t } }: Deps): FeatureRoutes {
  return {
    public: router().post('/probate-calculator', jsonBody(probateCalculationInput), async (c) => {
      const calc = c.req.valid('json');
      assertMatchesSchedule(calc);
      const [row] = await db.insert(t.probateCalculations).values(calc).returning({ id: t.probateCalculations.id, createdAt: t.probateCalculations.createdAt });
      return c.json(row, 201);
    }),
  };
}
