/**
 * The integrations screen's rules, apart from the React code so they are unit tested: the rows the
 * admin API returns, the provider names and the SPEC §3 config templates prefilled on choosing a
 * provider, the SPEC §5 Integrations validation (which missing field gives the 'Validation Error'
 * toast, then the shared zod schemas the API uses), the blog source's number of articles (a
 * non-numeric entry becomes 5), the delivery log's wording and when to poll for a new source's
 * first fetch.
 */
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { type ApiData, api, read } from '../../../lib/api-client.ts';
import { blogSourceDisplayLimit, type blogSourceTypes, calendarProviders, emailProviders } from '../../../shared/constants.ts';
import { blogSourceInput, calendarSettingInput, customCalendarMessages, emailSettingInput } from '../../../shared/schemas/integrations.ts';
import { adminQueries, type Row } from '../admin-api.ts';

export type CalendarProvider = (typeof calendarProviders)[number];
export type EmailProvider = (typeof emailProviders)[number];
export type BlogSourceType = (typeof blogSourceTypes)[number];

/**
 * The screen's queries: each key is the path it fetches (SPEC §7), each answer typed by its route.
 * The active calendar and email settings are the public calls (the active one, or null).
 */
export const integrationQueries = {
  calendarSettings: adminQueries.calendarSettings,
  activeCalendar: queryOptions({ queryKey: ['/api/calendar-settings/active'], queryFn: () => read(api['calendar-settings'].active.$get()) }),
  activeEmail: queryOptions({ queryKey: ['/api/email-settings/active'], queryFn: () => read(api['email-settings'].active.$get()) }),
  /** The current email configuration, its secrets masked (null when none). */
  emailSetting: queryOptions({ queryKey: ['/api/admin/email-settings'], queryFn: () => read(api.admin['email-settings'].$get()) }),
  /** Mail kept while no email integration is configured. */
  emailOutbox: queryOptions({ queryKey: ['/api/admin/email-outbox'], queryFn: () => read(api.admin['email-outbox'].$get()) }),
  /** How many messages are held in all, the oldest's time, and the store's bounds (decision 042). */
  emailOutboxSummary: queryOptions({
    queryKey: ['/api/admin/email-outbox/summary'],
    queryFn: () => read(api.admin['email-outbox'].summary.$get()),
  }),
  /** Held and recently failed deliveries by channel: the dashboard's and the Email tab's warnings. */
  deliveryAttention: queryOptions({ queryKey: ['/api/admin/deliveries/attention'], queryFn: () => read(api.admin.deliveries.attention.$get()) }),
  blogSources: adminQueries.blogSources,
  externalArticles: queryOptions({ queryKey: ['/api/external-blog-articles'], queryFn: () => read(api['external-blog-articles'].$get()) }),
};

export const integrationKeys = {
  calendarSettings: integrationQueries.calendarSettings.queryKey,
  activeCalendar: integrationQueries.activeCalendar.queryKey,
  activeEmail: integrationQueries.activeEmail.queryKey,
  emailSetting: integrationQueries.emailSetting.queryKey,
  emailOutbox: integrationQueries.emailOutbox.queryKey,
  emailOutboxSummary: integrationQueries.emailOutboxSummary.queryKey,
  deliveryAttention: integrationQueries.deliveryAttention.queryKey,
  blogSources: integrationQueries.blogSources.queryKey,
  externalArticles: integrationQueries.externalArticles.queryKey,
};

/** A row of GET /api/admin/calendar-settings: config, webhook URL and API key come back masked. */
export type CalendarIntegration = Row<typeof integrationQueries.calendarSettings>;
/** A row of GET /api/admin/blog-sources (url, config and lastError masked by the server), with its stored articles' count. */
export type BlogSource = Row<typeof integrationQueries.blogSources>;
/** One entry of GET /api/admin/deliveries: no payload (personal data), secrets masked. */
export type DeliveryLogEntry = ApiData<typeof api.admin.deliveries.$get>[number];

/**
 * The delivery log of one channel (and integration), newest first: the query key is the path and
 * query string it fetches (SPEC §7).
 */
export function deliveriesQuery({ channel, integrationId, limit }: { channel: 'email' | 'calendar'; integrationId?: string; limit: number }) {
  const query = { channel, integrationId, limit: String(limit) };
  return queryOptions({ queryKey: [api.admin.deliveries.$path({ query })], queryFn: () => read(api.admin.deliveries.$get({ query })) });
}

/** Every delivery log on the screen starts with this, so one invalidation refreshes them all. */
export const isDeliveriesKey = (key: readonly unknown[]) => typeof key[0] === 'string' && key[0].startsWith('/api/admin/deliveries');

// ---------------------------------------------------------------------------------------------
// Providers and SPEC §3 config templates

export const calendarProviderLabels: Record<CalendarProvider, string> = {
  calendly: 'Calendly',
  google: 'Google Calendar',
  outlook: 'Outlook',
  custom: 'Custom webhook',
};

export const blogSourceTypeLabels: Record<BlogSourceType, string> = {
  rss: 'RSS',
  api: 'API',
  scraper: 'Scraper',
};

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);
export const isCalendarProvider = (value: string): value is CalendarProvider => isOneOf(calendarProviders, value);
export const isEmailProvider = (value: string): value is EmailProvider => isOneOf(emailProviders, value);

export const calendarProviderLabel = (provider: string) => (isCalendarProvider(provider) ? calendarProviderLabels[provider] : provider);
/** What an integration is called on the page: its name, else its provider's. */
export const integrationLabel = (row: { provider: string; name?: string | null }) => row.name || calendarProviderLabel(row.provider);
/** SPEC §2: the type is shown in upper case. */
export const blogSourceTypeText = (type: string) => type.toUpperCase();

/** SPEC §3 "Config templates prefilled on choosing a provider". */
export const configTemplates: Record<CalendarProvider | EmailProvider, Record<string, unknown>> = {
  calendly: { username: '', personal_access_token: '', webhook_signing_key: '' },
  google: { client_id: '', client_secret: '', redirect_uri: '', calendar_id: 'primary' },
  outlook: { client_id: '', client_secret: '', tenant_id: '' },
  custom: {},
  sendgrid: { api_key: '', from_email: '', from_name: '' },
  smtp: { host: '', port: 587, secure: false, auth: { user: '', pass: '' } },
};

/** The template as the textarea shows it. */
export function templateText(provider: CalendarProvider | EmailProvider): string {
  return JSON.stringify(configTemplates[provider], null, 2);
}

const allTemplateTexts = new Set(Object.keys(configTemplates).map((p) => templateText(p as CalendarProvider | EmailProvider)));

/** True when the text is empty or still one of the templates, untouched: nothing of the admin's would be lost. */
export function isUntouchedConfig(text: string): boolean {
  return text.trim() === '' || allTemplateTexts.has(text);
}

/**
 * The config after choosing a provider: its template, unless the admin has already typed their own
 * configuration (then it is kept, and the form offers the template on a button instead).
 */
export function configAfterProviderChange(current: string, next: CalendarProvider | EmailProvider | ''): string {
  if (!next) return current;
  return isUntouchedConfig(current) ? templateText(next) : current;
}

// ---------------------------------------------------------------------------------------------
// SPEC §5 Integrations: validation

export const VALIDATION_TITLE = 'Validation Error';
export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields.';
export const EMAIL_CONFIG_REQUIRED_MESSAGE = 'Please provide configuration settings.';

/**
 * A form's verdict: `missing` is SPEC §5's case (the 'Validation Error' toast, nothing sent), with a
 * message per missing field for beside the fields; `invalid` is the shared schema refusing a value
 * (shown beside the field); else the payload to send.
 */
export type FormCheck<T> =
  | { kind: 'missing'; fields: Record<string, string> }
  | { kind: 'invalid'; fields: Record<string, string> }
  | { kind: 'ok'; payload: T };

function schemaCheck<S extends z.ZodType>(schema: S, input: unknown): FormCheck<z.output<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { kind: 'ok', payload: result.data };
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? '');
    if (key && !(key in fields)) fields[key] = issue.message;
  }
  return { kind: 'invalid', fields };
}

const blank = (v: string | null | undefined) => !v || v.trim() === '';

export interface CalendarFormValues {
  provider: CalendarProvider | '';
  /** Optional: to tell two of one provider apart (issue 19). */
  name?: string;
  config: string;
  webhookUrl: string;
  apiKey: string;
}

export type CalendarPayload = z.output<typeof calendarSettingInput>;

/** A custom webhook is signed with the API key, so it needs both (the calendar sync refuses it otherwise). */
export const customNeedsSigning = (provider: string) => provider === 'custom';

/**
 * SPEC §5: provider and config are required ('Validation Error' / 'Please fill in all required
 * fields.'); the config is not checked as JSON. A custom webhook also needs its URL and signing key.
 * SPEC §7: sent with isActive false.
 */
export function checkCalendarForm(values: CalendarFormValues): FormCheck<CalendarPayload> {
  const missing: Record<string, string> = {};
  if (!values.provider) missing.provider = 'Please choose a provider';
  if (blank(values.config)) missing.config = 'Configuration is required';
  if (customNeedsSigning(values.provider)) {
    if (blank(values.webhookUrl)) missing.webhookUrl = customCalendarMessages.webhookUrl;
    if (blank(values.apiKey)) missing.apiKey = customCalendarMessages.apiKey;
  }
  if (Object.keys(missing).length) return { kind: 'missing', fields: missing };
  return schemaCheck(calendarSettingInput, {
    provider: values.provider,
    name: values.name ?? '',
    isActive: false,
    config: values.config,
    webhookUrl: values.webhookUrl,
    apiKey: values.apiKey,
  });
}

export interface EmailFormValues {
  provider: EmailProvider;
  config: string;
}

export type EmailPayload = z.output<typeof emailSettingInput>;

/** SPEC §5: config required ('Please provide configuration settings.'); SPEC §7: sent with isActive true. */
export function checkEmailForm(values: EmailFormValues): FormCheck<EmailPayload> {
  if (blank(values.config)) return { kind: 'missing', fields: { config: 'Configuration is required' } };
  return schemaCheck(emailSettingInput, { provider: values.provider, isActive: true, config: values.config });
}

export interface BlogSourceFormValues {
  name: string;
  url: string;
  type: BlogSourceType;
  /** As typed: text, so that a non-numeric entry can become 5 (SPEC §5). */
  displayLimit: string;
  config: string;
}

export type BlogSourcePayload = z.output<typeof blogSourceInput>;

/** SPEC §5: a non-numeric number of articles becomes 5 (the default); a number is kept, and checked against 1-10. */
export function parseDisplayLimit(text: string): number {
  const n = Number.parseInt(text.trim(), 10);
  return Number.isNaN(n) ? blogSourceDisplayLimit.default : n;
}

export const blogSourceFormDefaults = (): BlogSourceFormValues => ({
  name: '',
  url: '',
  type: 'rss',
  displayLimit: String(blogSourceDisplayLimit.default),
  config: '',
});

/** SPEC §5: name and url required; SPEC §7: sent with isActive true. */
export function checkBlogSourceForm(values: BlogSourceFormValues): FormCheck<BlogSourcePayload> {
  const missing: Record<string, string> = {};
  if (blank(values.name)) missing.name = 'Name is required';
  if (blank(values.url)) missing.url = 'URL is required';
  if (Object.keys(missing).length) return { kind: 'missing', fields: missing };
  return schemaCheck(blogSourceInput, {
    name: values.name,
    url: values.url,
    type: values.type,
    displayLimit: parseDisplayLimit(values.displayLimit),
    config: values.config,
    isActive: true,
  });
}

// ---------------------------------------------------------------------------------------------
// Lists

/** SPEC §2: the Active banner names the active provider (only one is shown). */
export function activeIntegration(rows: readonly CalendarIntegration[]): CalendarIntegration | null {
  return rows.find((r) => r.isActive) ?? null;
}

/** The outbox newest first (file names sort oldest first on the server). */
export function newestFirst<T extends { createdAt: string }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

/** A (masked) config as the admin reads it: indented JSON, or the text as it is. */
export function prettyConfig(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export const articlesText = (n: number) => `Shows ${n} article${n === 1 ? '' : 's'}`;
export const storedArticlesText = (n: number) => `${n} article${n === 1 ? '' : 's'} stored`;

/** Fetch now's toast: the call succeeds even when the source could not be read (its lastError says why). */
export function fetchOutcomeToast(name: string, result: Pick<BlogSource, 'lastError' | 'articleCount'>): { title: string; description: string } {
  if (result.lastError) return { title: 'Fetch Failed', description: `${name}: ${result.lastError}` };
  const stored = typeof result.articleCount === 'number' ? `: ${storedArticlesText(result.articleCount)}` : '';
  return { title: 'Success', description: `${name} fetched${stored}` };
}

// ---------------------------------------------------------------------------------------------
// A new source's first fetch

/** While a new source has never been fetched, the list is reloaded every ~2 s for up to ~30 s. */
export const FIRST_FETCH_POLL_MS = 2_000;
export const FIRST_FETCH_WAIT_MS = 30_000;

/**
 * How often to reload the blog sources: every 2 s while a source created on this page (`watched`:
 * id -> when it was created, by the browser's clock) has not been fetched yet and is less than 30 s
 * old; otherwise not at all (SPEC §7: no interval refetch).
 */
export function firstFetchPollInterval(
  rows: readonly Pick<BlogSource, 'id' | 'lastFetched' | 'lastError'>[] | undefined,
  watched: ReadonlyMap<string, number>,
  now: number,
): number | false {
  if (!rows) return false;
  const waiting = rows.some((r) => {
    const since = watched.get(r.id);
    return since !== undefined && now - since < FIRST_FETCH_WAIT_MS && !r.lastFetched && !r.lastError;
  });
  return waiting ? FIRST_FETCH_POLL_MS : false;
}

// ---------------------------------------------------------------------------------------------
// Delivery log wording

/** '1 message is' / '3 messages are'. */
export const messagesAre = (n: number) => (n === 1 ? '1 message is' : `${n} messages are`);

/** How long ago something was held, in the unit an admin would say: hours for two days, then days. */
export function heldAgo(at: string, now: Date): string {
  const hours = Math.floor((now.getTime() - Date.parse(at)) / 3_600_000);
  if (hours < 1) return 'less than an hour ago';
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/** The held mail in a phrase ('3 messages, the oldest held 2 days ago'); null when none is held. */
export function heldMailText({ messages, oldestAt }: { messages: number; oldestAt: string | null }, now: Date): string | null {
  if (!messages) return null;
  const count = messages === 1 ? '1 message' : `${messages} messages`;
  return oldestAt ? `${count}, the oldest held ${heldAgo(oldestAt, now)}` : count;
}

/** The delivery states (the deliveries table's check; the route answers the column as text). */
export const deliveryStatusLabels = {
  pending: 'Pending',
  sending: 'Sending',
  sent: 'Sent',
  // Kept in the development outbox while e-mail was not configured (issue 19): never "Sent".
  held: 'Held, not sent',
  failed: 'Failed',
  skipped: 'Skipped',
} as const;

export const deliveryStatusLabel = (status: string): string =>
  Object.hasOwn(deliveryStatusLabels, status) ? deliveryStatusLabels[status as keyof typeof deliveryStatusLabels] : status;

/** 'booking-confirmation' -> 'Booking confirmation', 'event_create' -> 'Event create'. */
export function purposeLabel(purpose: string): string {
  const words = purpose.replace(/[-_]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : purpose;
}

/** 'Attempts: 1' etc. only when it helps: a retry or a failure. */
export function attemptsText(entry: Pick<DeliveryLogEntry, 'attempts' | 'status'>): string | null {
  if (entry.attempts <= 0) return null;
  if (entry.attempts === 1 && (entry.status === 'sent' || entry.status === 'held')) return null;
  return `${entry.attempts} attempt${entry.attempts === 1 ? '' : 's'}`;
}
