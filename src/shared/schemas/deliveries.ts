import { z } from 'zod';

/** GET /api/admin/deliveries: the delivery log, newest first. */
export const deliveryLogQuery = z.object({
  channel: z.enum(['email', 'calendar'], { error: 'channel must be email or calendar' }).optional(),
  appointmentId: z.string().min(1).max(64).optional(),
  integrationId: z.string().min(1).max(64).optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number from 1 to 200' })
    .int()
    .min(1, 'limit must be at least 1')
    .max(200, 'limit must be at most 200')
    .default(50),
});
