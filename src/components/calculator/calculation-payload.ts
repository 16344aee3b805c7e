/**
 * The body of POST /api/probate-calculator (SPEC §7: every figure a string, userEmail), checked with
 * the API's own schema (one source of validation). Imported on demand: only when an email is given.
 */
import type { ProbateEstimate } from '../../shared/probate.ts';
import { probateCalculationInput, type ProbateCalculationInput } from '../../shared/schemas/probate-calculations.ts';
import { toMoneyString } from './amount-input.ts';
import type { CalculatorErrors } from './calculation.ts';

export type PayloadOutcome = { ok: false; errors: CalculatorErrors } | { ok: true; payload: ProbateCalculationInput };

export function calculationPayload(estimate: ProbateEstimate, email: string): PayloadOutcome {
  const payload: ProbateCalculationInput = {
    estateValue: toMoneyString(estimate.estateValue),
    realEstateValue: toMoneyString(estimate.realEstateValue),
    attorneyFees: toMoneyString(estimate.attorneyFees),
    executorFees: toMoneyString(estimate.executorFees),
    courtCosts: toMoneyString(estimate.courtCosts),
    totalProbate: toMoneyString(estimate.totalProbate),
    trustCost: toMoneyString(estimate.trustCost),
    savings: toMoneyString(estimate.savings),
    userEmail: email.trim() || null,
  };
  const parsed = probateCalculationInput.safeParse(payload);
  if (parsed.success) return { ok: true, payload };
  const errors: CalculatorErrors = {};
  for (const issue of parsed.error.issues) errors[issue.path[0] === 'userEmail' ? 'email' : 'estateValue'] ??= issue.message;
  return { ok: false, errors };
}
