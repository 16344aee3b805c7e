/**
 * The Get Directions link (SPEC §2 /about and /contact): a plain link to a maps service's directions
 * to the office, opened in a new tab. No embedded map, no third-party script.
 */
import { firmAddressLine, firm } from '../../config/firm.ts';

export const directionsUrl = `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(`${firm.name}, ${firmAddressLine}`)}`;
