import { describe, expect, it } from 'vitest';
import {
  attorneyFee,
  courtCostRule,
  estimateProbate,
  feeBreakdown,
  formatUsd,
  livingTrust,
  parseAmount,
  specFeeSchedule,
  statutoryFeeSchedule,
} from './probate.ts';

describe('attorneyFee (SPEC §9 marginal bands)', () => {
  // [estate value, fee]: each band edge, and 1,000 above it, where only the next band's rate applies.
  const edges: [number, number][] = [
    [100_000, 4_000],
    [101_000, 4_015], // 4,000 + 1,000 x 1.5%
    [1_000_000, 17_500], // 4,000 + 900,000 x 1.5%
    [1_001_000, 17_510], // + 1,000 x 1%
    [5_000_000, 57_500], // + 4,000,000 x 1%
    [5_001_000, 57_509], // + 1,000 x 0.9%
    [10_000_000, 102_500], // + 5,000,000 x 0.9%
    [10_001_000, 102_508], // + 1,000 x 0.8%
    [15_000_000, 142_500], // + 5,000,000 x 0.8%
    [15_001_000, 142_507], // + 1,000 x 0.7%
    [20_000_000, 177_500], // + 5,000,000 x 0.7%
    [20_001_000, 177_506], // + 1,000 x 0.6%
    [25_000_000, 207_500], // + 5,000,000 x 0.6%
    [25_001_000, 207_505], // + 1,000 x 0.5%
    [30_000_000, 232_500], // + 5,000,000 x 0.5%
  ];
  it.each(edges)('is %d -> %d', (value, fee) => {
    expect(attorneyFee(value)).toBe(fee);
    expect(estimateProbate(value).attorneyFees).toBe(fee);
  });

  it('charges 4% of the first 100,000', () => {
    expect(attorneyFee(0)).toBe(0);
    expect(attorneyFee(1)).toBe(0);
    expect(attorneyFee(50_000)).toBe(2_000);
    expect(attorneyFee(99_999)).toBe(4_000); // 3,999.96
  });

  it('rounds the total to whole dollars, halves up', () => {
    expect(attorneyFee(100_001)).toBe(4_000); // 4,000.015
    expect(attorneyFee(100_100)).toBe(4_002); // 4,001.5
    expect(attorneyFee(100_099)).toBe(4_001); // 4,001.485
    expect(attorneyFee(5_000_100)).toBe(57_501); // 57,500.9
    expect(attorneyFee(25_000_100)).toBe(207_501); // 207,500.5
    expect(attorneyFee(100_000.5)).toBe(4_000);
    for (const v of [123_456, 987_654.32, 7_777_777, 33_333_333.33]) expect(Number.isInteger(attorneyFee(v))).toBe(true);
  });

  it('keeps the schedule as data: the statutory schedule gives its own figures', () => {
    // Probate Code §10810 (DOMAIN.md): 23,000 for a 1,000,000 estate, where SPEC's table gives 17,500.
    expect(attorneyFee(1_000_000, statutoryFeeSchedule)).toBe(23_000);
    expect(estimateProbate(1_000_000, 0, statutoryFeeSchedule)).toMatchObject({ attorneyFees: 23_000, executorFees: 23_000, totalProbate: 49_000 });
    expect(attorneyFee(1_000_000, specFeeSchedule)).toBe(17_500);
    // 4% of 100,000 + 3% of 100,000 + 2% of 800,000 + 1% of 9,000,000 + 0.5% of 15,000,000 = 188,000.
    expect(attorneyFee(25_000_000, statutoryFeeSchedule)).toBe(188_000);
    expect(estimateProbate(25_000_000, 0, statutoryFeeSchedule).courtDecidesAbove).toBeUndefined();
  });

  it('leaves the fee above $25 million to the court under the statute, and says from where', () => {
    const estimate = estimateProbate(30_000_000, 0, statutoryFeeSchedule);
    expect(estimate.attorneyFees).toBe(188_000);
    expect(estimate.courtDecidesAbove).toBe(25_000_000);
    expect(estimateProbate(30_000_000).courtDecidesAbove).toBeUndefined(); // SPEC's table has a rate there
  });
});

describe('feeBreakdown', () => {
  it('lists each band the estate reaches, with the part of the value in it and its fee, adding up to the fee', () => {
    expect(feeBreakdown(1_000_000, statutoryFeeSchedule)).toEqual([
      { from: 0, to: 100_000, rate: 0.04, amount: 4_000 },
      { from: 100_000, to: 200_000, rate: 0.03, amount: 3_000 },
      { from: 200_000, to: 1_000_000, rate: 0.02, amount: 16_000 },
    ]);
    expect(feeBreakdown(1_000_000).map((b) => b.amount)).toEqual([4_000, 13_500]);
    for (const value of [1, 99_999, 100_001, 2_345_678, 12_000_000, 26_000_000]) {
      for (const schedule of [specFeeSchedule, statutoryFeeSchedule]) {
        const sum = feeBreakdown(value, schedule).reduce((total, b) => total + (b.amount ?? 0), 0);
        expect(sum, `${schedule.id} ${value}`).toBe(attorneyFee(value, schedule));
      }
    }
    expect(feeBreakdown(30_000_000, statutoryFeeSchedule).at(-1)).toEqual({ from: 25_000_000, to: 30_000_000, rate: null, amount: null });
    expect(feeBreakdown(0)).toEqual([]);
  });
});

describe('estimateProbate', () => {
  it('gives every figure for a 1,000,000 estate', () => {
    expect(estimateProbate(1_000_000, 600_000)).toEqual({
      estateValue: 1_000_000,
      realEstateValue: 600_000,
      attorneyFees: 17_500,
      executorFees: 17_500,
      courtCosts: 3_000,
      totalProbate: 38_000,
      trustCost: 3_000,
      savings: 35_000,
    });
  });

  it('sets the executor fee equal to the attorney fee and sums the total', () => {
    for (const v of [1, 27_500, 450_000, 3_210_987, 12_345_678, 40_000_000]) {
      const e = estimateProbate(v);
      expect(e.executorFees).toBe(e.attorneyFees);
      expect(e.totalProbate).toBe(e.attorneyFees + e.executorFees + e.courtCosts);
      expect(e.trustCost).toBe(3_000);
    }
    expect(livingTrust.preparation + livingTrust.funding).toBe(3_000);
  });

  it('does not let the real estate value change the figures', () => {
    const { realEstateValue: _a, ...without } = estimateProbate(750_000);
    const { realEstateValue, ...withRealEstate } = estimateProbate(750_000, 500_000);
    expect(withRealEstate).toEqual(without);
    expect(realEstateValue).toBe(500_000);
    expect(estimateProbate(750_000).realEstateValue).toBe(0);
  });

  it('charges court costs of 0.3%, at least 800 and at most 5,000', () => {
    expect(courtCostRule).toEqual({ rate: 0.003, min: 800, max: 5_000 });
    const court = (v: number) => estimateProbate(v).courtCosts;
    expect(court(1)).toBe(800);
    expect(court(100_000)).toBe(800); // 300
    expect(court(266_666)).toBe(800); // 799.998
    expect(court(266_667)).toBe(800); // 800.001
    expect(court(266_900)).toBe(801); // 800.7
    expect(court(500_000)).toBe(1_500);
    expect(court(1_234_567)).toBe(3_704); // 3,703.701
    expect(court(1_666_000)).toBe(4_998);
    expect(court(1_666_500)).toBe(5_000); // 4,999.5
    expect(court(1_666_666)).toBe(5_000); // 4,999.998
    expect(court(1_666_667)).toBe(5_000); // 5,000.001
    expect(court(1_700_000)).toBe(5_000); // 5,100
    expect(court(100_000_000)).toBe(5_000);
  });

  it('floors the savings at 0 for small estates', () => {
    expect(estimateProbate(10_000)).toMatchObject({ attorneyFees: 400, courtCosts: 800, totalProbate: 1_600, savings: 0 });
    expect(estimateProbate(20_000)).toMatchObject({ totalProbate: 2_400, savings: 0 });
    expect(estimateProbate(27_500)).toMatchObject({ attorneyFees: 1_100, totalProbate: 3_000, savings: 0 });
    expect(estimateProbate(27_525)).toMatchObject({ attorneyFees: 1_101, totalProbate: 3_002, savings: 2 });
    expect(estimateProbate(50_000)).toMatchObject({ totalProbate: 4_800, savings: 1_800 });
    for (const v of [1, 500, 5_000, 15_000, 27_499]) expect(estimateProbate(v).savings).toBe(0);
  });

  it('gives whole dollars for every figure, whatever the cents of the estate', () => {
    for (const v of [100_000.49, 266_833.33, 1_111_111.11, 9_999_999_999.99]) {
      const e = estimateProbate(v);
      for (const key of ['attorneyFees', 'executorFees', 'courtCosts', 'totalProbate', 'trustCost', 'savings'] as const) {
        expect(Number.isInteger(e[key]), `${key} of ${v}`).toBe(true);
      }
    }
  });
});

describe('parseAmount', () => {
  it('strips thousands separators, a dollar sign and spaces', () => {
    expect(parseAmount('1,234,567')).toBe(1_234_567);
    expect(parseAmount('$1,250,000')).toBe(1_250_000);
    expect(parseAmount(' 750000 ')).toBe(750_000);
    expect(parseAmount('1,234.56')).toBe(1_234.56);
    expect(parseAmount('0')).toBe(0);
    expect(parseAmount('100000')).toBe(100_000);
  });

  it('answers NaN for junk, empty or signed input', () => {
    for (const junk of ['', '   ', ',', 'abc', '12abc', '1.2.3', '-5', '+5', '1e6', 'Infinity', 'NaN', '$', '0x10', '1.']) {
      expect(parseAmount(junk), JSON.stringify(junk)).toBeNaN();
    }
  });
});

describe('formatUsd', () => {
  it('shows US dollars with thousands separators and no decimals', () => {
    expect(formatUsd(1_234_567)).toBe('$1,234,567');
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(3_000)).toBe('$3,000');
    expect(formatUsd(999.49)).toBe('$999');
    expect(formatUsd(1_234.5)).toBe('$1,235');
    expect(formatUsd(17_500)).not.toContain('.');
  });
});
