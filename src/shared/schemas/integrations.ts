import { z } from 'zod';
import { blogSourceDisplayLimit, blogSourceTypes, calendarProviders, emailProviders } from '../constants.ts';
import { httpUrl, jsonObjectText, optionalHttpUrl, optionalText, requiredText } from './fields.ts';

/** What a custom integration cannot work without (it POSTs to the URL, signed with the key). */
export const customCalendarMessages = {
  webhookUrl: 'Webhook URL is required for a custom integration: calendar events are posted to it',
  apiKey: 'API key is required for a custom integration: it signs the webhook posts',
} as const;

/**
 * POST /api/admin/calendar-settings: created inactive (SPEC §4); config is not checked as JSON (SPEC §5).
 * Webhook URL and API key are optional (SPEC §5), except for the custom provider: its
 * events go to that URL, signed with that key, so without them it could never sync.
 */
export const calendarSettingInput = z
  .object({
    provider: z.enum(calendarProviders, { error: 'Please choose a provider' }),
    name: optionalText('Name', 80),
    isActive: z.literal(false, { error: 'A calendar integration is created inactive; activate it afterwards' }).default(false),
    config: requiredText('Configuration', 20_000),
    webhookUrl: optionalHttpUrl('Webhook URL'),
    apiKey: optionalText('API key', 2000),
  })
  .superRefine(
    (value, ctx) => {
      if (value.webhookUrl === null) ctx.addIssue({ code: 'custom', path: ['webhookUrl'], message: customCalendarMessages.webhookUrl });
      if (value.apiKey === null) ctx.addIssue({ code: 'custom', path: ['apiKey'], message: customCalendarMessages.apiKey });
    },
    // Also while another field is still wrong, so the form shows every missing field at once. A field
    // that failed its own check keeps its raw input here, never null, so it is not reported twice.
    { when: (payload) => (payload.value as { provider?: unknown } | undefined)?.provider === 'custom' },
  );

/** PUT /api/admin/calendar-settings/:id (issue 19): the integration's name; blank or null for the provider's own. */
export const calendarSettingUpdate = z.object({ name: optionalText('Name', 80) });

/**
 * PUT /api/admin/calendar-settings/:id/settings (issue 19): a new configuration, which replaces the
 * saved one whole (the saved one is never shown in full); a blank webhook URL or API key keeps the
 * saved one.
 */
export const calendarSettingChange = z.object({
  config: requiredText('Configuration', 20_000),
  webhookUrl: optionalHttpUrl('Webhook URL'),
  apiKey: optionalText('API key', 2000),
});

/** POST /api/admin/email-settings: saved active, replacing any existing configuration (SPEC §4). */
export const emailSettingInput = z.object({
  provider: z.enum(emailProviders, { error: 'Please choose a provider' }).default('sendgrid'),
  isActive: z.literal(true, { error: 'An email configuration is saved active' }).default(true),
  config: jsonObjectText('Configuration'),
});

/** POST /api/admin/email-settings/test: to the signed-in admin unless another address is given. */
export const emailTestInput = z.object({
  to: z.email({ error: 'Please enter a valid email address' }).max(254, 'Please enter a valid email address').optional(),
});

/** POST /api/admin/blog-sources: created active (SPEC §4). */
export const blogSourceInput = z.object({
  name: requiredText('Name', 120),
  url: httpUrl('URL'),
  type: z.enum(blogSourceTypes, { error: 'Type must be rss, api or scraper' }).default('rss'),
  displayLimit: z
    .number({ error: `Number of articles must be from ${blogSourceDisplayLimit.min} to ${blogSourceDisplayLimit.max}` })
    .int()
    .min(blogSourceDisplayLimit.min, `Number of articles must be at least ${blogSourceDisplayLimit.min}`)
    .max(blogSourceDisplayLimit.max, `Number of articles must be at most ${blogSourceDisplayLimit.max}`)
    .default(blogSourceDisplayLimit.default),
  config: z
    .string()
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .pipe(jsonObjectText('Configuration').nullable()),
  isActive: z.literal(true, { error: 'A blog source is created active' }).default(true),
});

/** PUT /api/admin/calendar-settings/:id/calendar (issue 20): the connected account's calendar appointments go to. */
export const calendarChoice = z.object({ calendarId: requiredText('Calendar', 1024) });
