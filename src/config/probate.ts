/**
 * The fee schedule the firm's probate calculator uses, and the site's pages and articles describe
 * (src/shared/probate.ts): SPEC §9's table by default, or California's statutory schedule
 * (`feeSchedules.statutory`). Declared here with the firm's other facts until the admin chooses it.
 * Safe for the browser: the calculator and the API's check of a saved calculation read the same one.
 */
import { type FeeSchedule, feeSchedules } from '../shared/probate.ts';

export const probateFeeSchedule: FeeSchedule = feeSchedules.spec;
