import type { Database } from '../../db/client.ts';
import { atomically, type Write } from '../../db/transactions.ts';

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

export function probateCalculationsRepository(database: Database) {
  const table = database.t.probateCalculations;
  return {
    /** `also`: statements that commit with the row, ahead of it (the request's idempotency key). */
    async create(values: CalculationValues & { id: string; createdAt: Date }, also: readonly Write[] = []) {
      const results = await atomically(database, (tx) => [
        ...also.map((write) => write(tx)),
        tx.insert(table).values(values).returning({ id: table.id, createdAt: table.createdAt }),
      ]);
      return (results.at(-1) as { id: string; createdAt: Date }[])[0]!;
    },
  };
}
