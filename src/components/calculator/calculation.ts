/**
 * From the calculator's fields to an estimate (SPEC §5 Calculator). No zod here: a visitor who only
 * calculates downloads no validation library; the payload is checked by ./calculation-payload.ts,
 * loaded when an email is given.
 */
import { probateFeeSchedule } from '../../config/probate.ts';
import { estimateProbate, type ProbateEstimate } from '../../shared/probate.ts';
import { amountValue } from './amount-input.ts';

export interface CalculatorFields {
  estateValue: string;
  realEstateValue: string;
  email: string;
}

export type CalculatorErrors = Partial<Record<'estateValue' | 'email', string>>;

/** SPEC §8 'Invalid Input' description, also the field's own message (the payload schema's too). */
export const INVALID_ESTATE_VALUE = 'Please enter a valid estate value greater than $0.';

export type EstimateOutcome = { ok: false; errors: CalculatorErrors } | { ok: true; estimate: ProbateEstimate };

export function estimateFromFields(fields: Pick<CalculatorFields, 'estateValue' | 'realEstateValue'>): EstimateOutcome {
  const estateValue = amountValue(fields.estateValue);
  if (!(estateValue > 0)) return { ok: false, errors: { estateValue: INVALID_ESTATE_VALUE } };
  // SPEC §5: real estate counts as 0 when empty or invalid.
  const realEstate = amountValue(fields.realEstateValue);
  return { ok: true, estimate: estimateProbate(estateValue, Number.isFinite(realEstate) ? realEstate : 0, probateFeeSchedule) };
}
