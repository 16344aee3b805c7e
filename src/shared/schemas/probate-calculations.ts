import { z } from 'zod';
import { money, optionalEmail } from './fields.ts';
import { honeypotField } from './honeypot.ts';

/** POST /api/probate-calculator (SPEC §7): all amounts as strings, userEmail optional. */
export const probateCalculationInput = z.object({
  estateValue: money('Estate value').refine((v) => Number(v) > 0, 'Please enter a valid estate value greater than $0.'),
  realEstateValue: money('Real estate value'),
  attorneyFees: money('Attorney fees'),
  executorFees: money('Executor fees'),
  courtCosts: money('Court costs'),
  totalProbate: money('Total probate'),
  trustCost: money('Trust cost'),
  savings: money('Savings'),
  userEmail: optionalEmail,
  // Empty from a person; a bot's save is answered 201 and kept nowhere.
  website: honeypotField,
});
/** What a saved calculation holds (the honeypot is the form's trap, not part of it). */
export type ProbateCalculationInput = Omit<z.input<typeof probateCalculationInput>, 'website'>;
