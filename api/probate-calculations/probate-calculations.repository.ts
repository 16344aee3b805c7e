import type { Database } from '../../db/client.ts';

export type CalculationValues = {
  estateValue: string;
  realEstateValue: string;
  attorneyFees: string;
  executorFees: string;
  courtCosts: string;
  totalProbate: string;
  trustCost: string;
  savings: string;
  userEmail: string | null;
};

export function probateCalculationsRepository({ db, t }: Database) {
  const table = t.probateCalculations;
  return {
    async create(values: CalculationValues) {
      const [row] = await db.insert(table).values(values).returning({ id: table.id, createdAt: table.createdAt });
      return row!;
    },
  };
}
