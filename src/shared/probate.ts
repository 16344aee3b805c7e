/**
 * SPEC §9 probate calculator. The fee schedule is data, in one place, so the firm can switch it
 * (DOMAIN.md: SPEC's table, or the statutory schedule of Probate Code §10810 and §10800); the firm's
 * choice is src/config/probate.ts. Results are whole dollars.
 */
export interface FeeBand {
  /** Upper bound of the band in dollars; Infinity for the last band. */
  upTo: number;
  /** The share of the band's value; null: an amount the court decides (the statute above $25 million). */
  rate: number | null;
}

export interface FeeSchedule {
  id: 'spec' | 'statutory';
  /** How the site names it to visitors. */
  name: string;
  bands: readonly FeeBand[];
}

/** SPEC §9's table (the default): marginal rates per band of estate value. */
export const specFeeSchedule: FeeSchedule = {
  id: 'spec',
  name: "the firm's simplified fee schedule",
  bands: [
    { upTo: 100_000, rate: 0.04 },
    { upTo: 1_000_000, rate: 0.015 },
    { upTo: 5_000_000, rate: 0.01 },
    { upTo: 10_000_000, rate: 0.009 },
    { upTo: 15_000_000, rate: 0.008 },
    { upTo: 20_000_000, rate: 0.007 },
    { upTo: 25_000_000, rate: 0.006 },
    { upTo: Infinity, rate: 0.005 },
  ],
};

/**
 * California's statutory compensation (Probate Code §10810 for the attorney, §10800 for the personal
 * representative), on the estate's gross value: above $25 million the court decides.
 */
export const statutoryFeeSchedule: FeeSchedule = {
  id: 'statutory',
  name: 'the statutory fee schedule of California Probate Code §10810 and §10800',
  bands: [
    { upTo: 100_000, rate: 0.04 },
    { upTo: 200_000, rate: 0.03 },
    { upTo: 1_000_000, rate: 0.02 },
    { upTo: 10_000_000, rate: 0.01 },
    { upTo: 25_000_000, rate: 0.005 },
    { upTo: Infinity, rate: null },
  ],
};

export const feeSchedules = { spec: specFeeSchedule, statutory: statutoryFeeSchedule } as const;

/** One band of the fee as it applies to an estate: the part of the value in it, and what it adds. */
export interface FeeBandShare {
  from: number;
  to: number;
  rate: number | null;
  /** Whole dollars; null where the court decides. */
  amount: number | null;
}

/** The bands an estate of `estateValue` reaches, each with the part of the value in it and its fee. */
export function feeBreakdown(estateValue: number, schedule: FeeSchedule = specFeeSchedule): FeeBandShare[] {
  const shares: FeeBandShare[] = [];
  let lower = 0;
  // Each band's amount is the rounded running total less the one before, so the amounts add up to
  // the rounded fee exactly, as the visitor reads them.
  let running = 0;
  for (const band of schedule.bands) {
    if (estateValue <= lower) break;
    const to = Math.min(estateValue, band.upTo);
    const before = Math.round(running);
    if (band.rate !== null) running += (to - lower) * band.rate;
    shares.push({ from: lower, to, rate: band.rate, amount: band.rate === null ? null : Math.round(running) - before });
    lower = band.upTo;
  }
  return shares;
}

export const courtCostRule = { rate: 0.003, min: 800, max: 5_000 } as const;
export const livingTrust = { preparation: 2_500, funding: 500 } as const;

export interface ProbateEstimate {
  estateValue: number;
  realEstateValue: number;
  attorneyFees: number;
  executorFees: number;
  courtCosts: number;
  totalProbate: number;
  trustCost: number;
  savings: number;
  /** The value above which the fee is the court's to decide (the statute above $25 million), when the estate reaches it. */
  courtDecidesAbove?: number;
}

/** The attorney's fee: marginal rate per band, rounded to whole dollars (bands the court decides count nothing here). */
export function attorneyFee(estateValue: number, schedule: FeeSchedule = specFeeSchedule): number {
  let fee = 0;
  let lower = 0;
  for (const band of schedule.bands) {
    if (estateValue <= lower) break;
    fee += (Math.min(estateValue, band.upTo) - lower) * (band.rate ?? 0);
    lower = band.upTo;
  }
  return Math.round(fee);
}

export function estimateProbate(estateValue: number, realEstateValue = 0, schedule: FeeSchedule = specFeeSchedule): ProbateEstimate {
  const attorneyFees = attorneyFee(estateValue, schedule);
  const executorFees = attorneyFees;
  const courtCosts = Math.round(Math.min(courtCostRule.max, Math.max(courtCostRule.min, estateValue * courtCostRule.rate)));
  const totalProbate = attorneyFees + executorFees + courtCosts;
  const trustCost = livingTrust.preparation + livingTrust.funding;
  const savings = Math.max(0, totalProbate - trustCost);
  const decided = feeBreakdown(estateValue, schedule).find((share) => share.rate === null);
  return {
    estateValue,
    realEstateValue,
    attorneyFees,
    executorFees,
    courtCosts,
    totalProbate,
    trustCost,
    savings,
    ...(decided && { courtDecidesAbove: decided.from }),
  };
}

/** "1,234,567" -> 1234567; NaN when not a number (SPEC §5: separators are stripped first). */
export function parseAmount(text: string): number {
  const cleaned = text.replace(/[,$\s]/g, '');
  return cleaned === '' || !/^\d+(\.\d+)?$/.test(cleaned) ? Number.NaN : Number(cleaned);
}

/** SPEC §9: US dollars, no decimals. */
export const formatUsd = (value: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0, minimumFractionDigits: 0 }).format(value);
