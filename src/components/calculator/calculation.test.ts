import { describe, expect, it } from 'vitest';
import { estimateProbate } from '../../shared/probate.ts';
import { probateCalculationInput } from '../../shared/schemas/probate-calculations.ts';
import { calculationPayload } from './calculation-payload.ts';
import { estimateFromFields, INVALID_ESTATE_VALUE } from './calculation.ts';

const fields = (estateValue: string, realEstateValue = '') => ({ estateValue, realEstateValue });

describe('estimateFromFields (SPEC §5 Calculator)', () => {
  it.each(['', '0', '0.00', 'abc', ',', '.'])('refuses the estate value %j', (value) => {
    expect(estimateFromFields(fields(value))).toEqual({ ok: false, errors: { estateValue: INVALID_ESTATE_VALUE } });
  });

  it('estimates from the formatted fields', () => {
    expect(estimateFromFields(fields('1,000,000', '500,000'))).toEqual({ ok: true, estimate: estimateProbate(1_000_000, 500_000) });
  });

  it('counts an empty or invalid real estate value as 0', () => {
    for (const realEstate of ['', 'abc', '.']) {
      const outcome = estimateFromFields(fields('750,000', realEstate));
      expect(outcome.ok && outcome.estimate.realEstateValue).toBe(0);
    }
  });

  it('uses the same message as the payload schema', () => {
    const refused = probateCalculationInput.shape.estateValue.safeParse('0');
    expect(refused.success || refused.error.issues[0]?.message).toBe(INVALID_ESTATE_VALUE);
  });
});

describe('calculationPayload (SPEC §7 POST /api/probate-calculator)', () => {
  it('gives every figure as a money string, with the trimmed email', () => {
    const outcome = calculationPayload(estimateProbate(1_000_000, 500_000), '  ann@example.com ');
    expect(outcome).toEqual({
      ok: true,
      payload: {
        estateValue: '1000000.00',
        realEstateValue: '500000.00',
        attorneyFees: '17500.00',
        executorFees: '17500.00',
        courtCosts: '3000.00',
        totalProbate: '38000.00',
        trustCost: '3000.00',
        savings: '35000.00',
        userEmail: 'ann@example.com',
      },
    });
    expect(outcome.ok && probateCalculationInput.safeParse(outcome.payload).success).toBe(true);
  });

  it('keeps the cents of the estate value', () => {
    const outcome = calculationPayload(estimateProbate(1_234.5), 'ann@example.com');
    expect(outcome.ok && outcome.payload.estateValue).toBe('1234.50');
  });

  it('refuses an invalid email with the schema message', () => {
    expect(calculationPayload(estimateProbate(500_000), 'not-an-email')).toEqual({ ok: false, errors: { email: 'Please enter a valid email address' } });
  });
});
