/**
 * What a calendar integration's configuration lacks for its provider to work, asked when an admin
 * activates it (issue 19: an empty template was accepted and then failed every delivery). SPEC §5 lets
 * any text be saved; activating is the moment it has to work. The same readers the deliveries use
 * (google.ts, outlook.ts, the Calendly webhook's signing key) say what is missing, in the same words.
 */
import type { IntegrationSettings } from '../deps.ts';
import { PermanentDeliveryError } from '../deliveries/deliveries.ts';
import { googleCalendar } from './google.ts';
import { outlookCalendar } from './outlook.ts';
import { readConfigText } from './rest-calendar.ts';

/** Why the configuration (opened JSON text) cannot work for `provider`, or null when it can. */
export function calendarConfigProblem(provider: string, config: string, integrations: IntegrationSettings): string | null {
  try {
    if (provider === 'google') googleCalendar.connect(readConfigText(config, googleCalendar.label), integrations);
    else if (provider === 'outlook') outlookCalendar.connect(readConfigText(config, outlookCalendar.label), integrations);
    // Calendly posts to us: without its signing key no webhook can be verified (calendly.ts).
    else if (provider === 'calendly') readConfigText(config, 'Calendly').required('webhook_signing_key', 'the webhook signing key Calendly gave you');
    return null;
  } catch (err) {
    if (err instanceof PermanentDeliveryError) return err.message;
    throw err;
  }
}
