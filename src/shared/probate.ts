/**
 * SPEC §9 probate calculator. The fee schedule is data, in one place, so the firm can switch it
 * (DOMAIN.md: the statutory schedule of Probate Code §10810 differs). Results are whole dollars.
 */
export interface FeeBand {
  /** Upper bound of the band in dollars; Infinity for the last band. */
  upTo: number;
  rate: number;
}

/** Marginal rates per band of estate value (SPEC §9). */
export const specFeeSchedule: readonly FeeBand[] = [
  { upTo: 100_000, rate: 0.04 },
  { upTo: 1_000_000, rate: 0.015 },
  { upTo: 5_000_000, rate: 0.01 },
  { upTo: 10_000_000, rate: 0.009 },
  { upTo: 15_000_000, rate: 0.008 },
  { upTo: 20_000_000, rate: 0.007 },
  { upTo: 25_000_000, rate: 0.006 },
  { upTo: Infinity, rate: 0.005 },
];

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
}

/** Statutory attorney fee: marginal rate per band, rounded to whole dollars. */
export function attorneyFee(estateValue: number, schedule: readonly FeeBand[] = specFeeSchedule): number {
  let fee = 0;
  let lower = 0;
  for (const band of schedule) {
    if (estateValue <= lower) break;
    fee += (Math.min(estateValue, band.upTo) - lower) * band.rate;
    lower = band.upTo;
  }
  return Math.round(fee);
}

export function estimateProbate(estateValue: number, realEstateValue = 0, schedule: readonly FeeBand[] = specFeeSchedule): ProbateEstimate {
  const attorneyFees = attorneyFee(estateValue, schedule);
  const executorFees = attorneyFees;
  const courtCosts = Math.round(Math.min(courtCostRule.max, Math.max(courtCostRule.min, estateValue * courtCostRule.rate)));
  const totalProbate = attorneyFees + executorFees + courtCosts;
  const trustCost = livingTrust.preparation + livingTrust.funding;
  const savings = Math.max(0, totalProbate - trustCost);
  return { estateValue, realEstateValue, attorneyFees, executorFees, courtCosts, totalProbate, trustCost, savings };
}

/** "1,234,567" -> 1234567; NaN when not a number (SPEC §5: separators are stripped first). */
export function parseAmount(text: string): number {
  const cleaned = text.replace(/[,$\s]/g, '');
  return cleaned === '' || !/^\d+(\.\d+)?$/.test(cleaned) ? Number.NaN : Number(cleaned);
}

/** SPEC §9: US dollars, no decimals. */
export const formatUsd = (value: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0, minimumFractionDigits: 0 }).format(value);
