/**
 * The data model (SPEC §3), written once for both dialects (docs/decisions/019-one-schema.md): the
 * builders come from ./kit.ts, and pg.ts and sqlite.ts build these tables with their own Drizzle
 * column types. Queries import the dialect modules (through db/client.ts), never this one. After a
 * change, `npm run db:generate` writes a migration for each dialect.
 *
 * Kinds per dialect: timestamps are timestamptz / UTC epoch milliseconds, booleans boolean / 0-1,
 * money numeric(12,2) / canonical decimal text ("1234.50", never a float).
 */
import { sql } from 'drizzle-orm';
import { firm } from '../../src/config/firm.ts';
import {
  appointmentStatuses,
  blogSourceDisplayLimit,
  blogSourceTypes,
  calendarProviders,
  defaultAppointmentMinutes,
  emailProviders,
  reviewPlatformValues,
} from '../../src/shared/constants.ts';
import { boolean, identity, integer, isBetween, isOneOf, money as moneyColumn, table, text, timestamp } from './kit.ts';

/** Lists not in src/shared/constants.ts: the services that write these columns type them with the same values. */
/** Ratings of testimonials and external reviews (SPEC §9: 1-5). */
const ratingRange = { min: 1, max: 5 };
const deliveryChannels = ['email', 'calendar'] as const;
const deliveryStatuses = ['pending', 'sending', 'sent', 'held', 'failed', 'skipped'] as const;
/** A delivery still to be sent (or being sent): the runner's queue. */
export const unfinishedDeliveryStatuses = ['pending', 'sending'] as const;
const migrationRunStates = ['running', 'completed', 'failed', 'interrupted'] as const;
const identityUserStatuses = ['UNCONFIRMED', 'CONFIRMED'] as const;
const identityCodePurposes = ['confirm-sign-up', 'reset-password'] as const;

const id = () =>
  text('id')
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID());
const createdAt = () =>
  timestamp('created_at')
    .notNull()
    .defaultNow()
    .$defaultFn(() => new Date());
const updatedAt = () =>
  timestamp('updated_at')
    .notNull()
    .defaultNow()
    .$defaultFn(() => new Date())
    .$onUpdate(() => new Date());
const money = <N extends string>(name: N) => moneyColumn(name).notNull();

export const users = table('users', {
  id: id(),
  username: text('username').notNull().unique(),
  password: text('password').notNull(),
  role: text('role').notNull().default('admin'),
  createdAt: createdAt(),
});

export const testimonials = table(
  'testimonials',
  {
    id: id(),
    clientName: text('client_name').notNull(),
    rating: integer('rating').notNull().default(5),
    content: text('content').notNull(),
    practiceArea: text('practice_area').notNull(),
    isPublished: boolean('is_published').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t, { check, index }) => [check('testimonials_rating_range', isBetween(t.rating, ratingRange)), index('testimonials_created_at_idx').on(t.createdAt)],
);

export const blogPosts = table(
  'blog_posts',
  {
    id: id(),
    title: text('title').notNull(),
    slug: text('slug').notNull().unique(),
    excerpt: text('excerpt').notNull(),
    content: text('content').notNull(),
    category: text('category').notNull(),
    author: text('author').notNull().default(firm.name),
    isPublished: boolean('is_published').notNull().default(false),
    publishedAt: timestamp('published_at'),
    /** What search results and link previews show, when it differs from the title and the excerpt. */
    seoTitle: text('seo_title'),
    seoDescription: text('seo_description'),
    /** An https image shown above the article and in link previews, with its alternative text. */
    featuredImageUrl: text('featured_image_url'),
    featuredImageAlt: text('featured_image_alt'),
    /** Preview links made before this instant no longer open (revoked from the editor, or the post unpublished). */
    previewsRevokedAt: timestamp('previews_revoked_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t, { index }) => [index('blog_posts_published_idx').on(t.isPublished, t.publishedAt)],
);

/** Old slugs keep working after a rename (DOMAIN.md Publishing): /blog/{old} redirects to the post. */
export const blogPostRedirects = table('blog_post_redirects', {
  id: id(),
  oldSlug: text('old_slug').notNull().unique(),
  postId: text('post_id')
    .notNull()
    .references(() => blogPosts.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

export const contactSubmissions = table(
  'contact_submissions',
  {
    id: id(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    practiceArea: text('practice_area').notNull(),
    message: text('message').notNull(),
    isRead: boolean('is_read').notNull().default(false),
    isResolved: boolean('is_resolved').notNull().default(false),
    createdAt: createdAt(),
  },
  (t, { index }) => [index('contact_submissions_created_at_idx').on(t.createdAt)],
);

export const probateCalculations = table('probate_calculations', {
  id: id(),
  estateValue: money('estate_value'),
  realEstateValue: money('real_estate_value'),
  attorneyFees: money('attorney_fees'),
  executorFees: money('executor_fees'),
  courtCosts: money('court_costs'),
  totalProbate: money('total_probate'),
  trustCost: money('trust_cost'),
  savings: money('savings'),
  userEmail: text('user_email'),
  createdAt: createdAt(),
});

export const themeSettings = table('theme_settings', {
  id: id(),
  name: text('name').notNull().unique(),
  displayName: text('display_name').notNull(),
  description: text('description').notNull(),
  cssVariables: text('css_variables').notNull(),
  isActive: boolean('is_active').notNull().default(false),
  isDefault: boolean('is_default').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const appointments = table(
  'appointments',
  {
    id: id(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    consultationType: text('consultation_type').notNull(),
    scheduledDate: timestamp('scheduled_date').notNull(),
    duration: integer('duration').notNull().default(defaultAppointmentMinutes),
    status: text('status').notNull().default('scheduled'),
    /** Why the firm cancelled it, told to the visitor (issue 19); null otherwise. */
    cancellationReason: text('cancellation_reason'),
    notes: text('notes'),
    practiceArea: text('practice_area').notNull(),
    reminderSent: boolean('reminder_sent').notNull().default(false),
    externalEventId: text('external_event_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t, { check, index, uniqueIndex }) => [
    check('appointments_status_values', isOneOf(t.status, appointmentStatuses)),
    check('appointments_duration_positive', sql`${t.duration} > 0`),
    index('appointments_scheduled_date_idx').on(t.scheduledDate),
    // One appointment per calendar event (a Calendly webhook delivered twice books once).
    uniqueIndex('appointments_external_event_id_unique').on(t.externalEventId),
  ],
);

/**
 * Docs/decisions/008: the 30-minute cells of the firm's day that a booked appointment
 * occupies, one row each, written in the booking's transaction. The primary key is the lock: two
 * bookings cannot both hold a cell, whichever process or connection makes them. Cancelling deletes
 * the appointment's cells (confirmed and completed keep them); deleting the appointment cascades.
 */
export const appointmentSlotClaims = table(
  'appointment_slot_claims',
  {
    startsAt: timestamp('starts_at').primaryKey(),
    appointmentId: text('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
  },
  (t, { index }) => [index('appointment_slot_claims_appointment_id_idx').on(t.appointmentId)],
);

export const calendarSettings = table(
  'calendar_settings',
  {
    id: id(),
    provider: text('provider').notNull(),
    /** What the admin calls it, to tell two of one provider apart (issue 19); null: the provider's name. */
    name: text('name'),
    isActive: boolean('is_active').notNull().default(false),
    config: text('config').notNull(),
    webhookUrl: text('webhook_url'),
    apiKey: text('api_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t, { check }) => [check('calendar_settings_provider_values', isOneOf(t.provider, calendarProviders))],
);

/**
 * Reading a Google or Outlook integration's changes back (issue 20, docs/decisions/037): where its
 * incremental sync stands (Google's nextSyncToken, Graph's deltaLink), its push channel (a Google
 * watch channel or a Graph subscription, with its secret sealed like the integration's config), and
 * the lease one container holds while it syncs it. Operational state: rebuilt by a full sync if lost.
 */
export const calendarSyncStates = table('calendar_sync_states', {
  integrationId: text('integration_id')
    .primaryKey()
    .references(() => calendarSettings.id, { onDelete: 'cascade' }),
  /** Google's sync token or Graph's delta link; null: the next sync is a full one. */
  cursor: text('cursor'),
  /** Bumped by every cursor change: a container advances the cursor only from the version it read. */
  version: integer('version').notNull().default(0),
  /** The container syncing it now, until leaseExpiresAt. */
  leaseOwner: text('lease_owner'),
  leaseExpiresAt: timestamp('lease_expires_at'),
  /** Google's channel id or Graph's subscription id; null: no push (polling only). */
  channelId: text('channel_id'),
  /** Google's resourceId (channels.stop needs it). */
  channelResourceId: text('channel_resource_id'),
  /** The token Google echoes / Graph's clientState, sealed. */
  channelSecret: text('channel_secret'),
  channelExpiresAt: timestamp('channel_expires_at'),
  /** The address the channel posts to: a changed SITE_URL makes a new one. */
  channelAddress: text('channel_address'),
  /**
   * The calendar the cursor and the channel belong to (API root and calendar id): another calendar
   * picked, or another mailbox configured, reads from scratch and watches anew.
   */
  source: text('source'),
  lastSyncedAt: timestamp('last_synced_at'),
  updatedAt: updatedAt(),
});

/**
 * Issue 20: a Connect with Google / Microsoft 365 begun and not yet finished (api/calendar-connect).
 * The `state` sent to the provider and the browser binding (an HttpOnly cookie) are kept as hashes
 * only; the PKCE verifier is sealed. Used once (used_at set by the callback that consumes it, so two
 * containers or a replay cannot both use it), and good for ten minutes.
 */
export const calendarAuthorizations = table(
  'calendar_authorizations',
  {
    id: id(),
    stateHash: text('state_hash').notNull(),
    bindingHash: text('binding_hash').notNull(),
    integrationId: text('integration_id')
      .notNull()
      .references(() => calendarSettings.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** The admin who began it (their identity's subject). */
    adminSub: text('admin_sub').notNull(),
    /** The PKCE code_verifier, sealed (deps.secrets). */
    codeVerifier: text('code_verifier').notNull(),
    expiresAt: timestamp('expires_at').notNull(),
    usedAt: timestamp('used_at'),
    createdAt: createdAt(),
  },
  (t, { unique, index }) => [unique('calendar_authorizations_state_hash').on(t.stateHash), index('calendar_authorizations_expires_at_idx').on(t.expiresAt)],
);

/**
 * Issue 20: the account a Google or Microsoft 365 integration is connected to, beside SPEC's
 * calendar_settings (whose sealed config holds the refresh token itself): the account's e-mail, the
 * chosen calendar's name, and, when a refresh was answered invalid_grant, when and why it needs
 * reconnecting. Deleted with the integration, and by Disconnect.
 */
export const calendarConnections = table('calendar_connections', {
  integrationId: text('integration_id')
    .primaryKey()
    .references(() => calendarSettings.id, { onDelete: 'cascade' }),
  accountEmail: text('account_email'),
  calendarName: text('calendar_name'),
  connectedAt: timestamp('connected_at').notNull(),
  needsReconnectAt: timestamp('needs_reconnect_at'),
  needsReconnectReason: text('needs_reconnect_reason'),
  updatedAt: updatedAt(),
});

export const emailSettings = table(
  'email_settings',
  {
    id: id(),
    provider: text('provider').notNull().default('sendgrid'),
    isActive: boolean('is_active').notNull().default(false),
    config: text('config').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t, { check }) => [check('email_settings_provider_values', isOneOf(t.provider, emailProviders))],
);

export const blogSources = table(
  'blog_sources',
  {
    id: id(),
    name: text('name').notNull(),
    url: text('url').notNull(),
    type: text('type').notNull().default('rss'),
    isActive: boolean('is_active').notNull().default(true),
    displayLimit: integer('display_limit').notNull().default(blogSourceDisplayLimit.default),
    config: text('config'),
    lastFetched: timestamp('last_fetched'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t, { check }) => [
    check('blog_sources_type_values', isOneOf(t.type, blogSourceTypes)),
    check('blog_sources_display_limit_range', isBetween(t.displayLimit, blogSourceDisplayLimit)),
  ],
);

export const externalBlogArticles = table(
  'external_blog_articles',
  {
    id: id(),
    sourceId: text('source_id')
      .notNull()
      .references(() => blogSources.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    url: text('url').notNull(),
    excerpt: text('excerpt'),
    content: text('content'),
    author: text('author'),
    publishedAt: timestamp('published_at'),
    imageUrl: text('image_url'),
    isVisible: boolean('is_visible').notNull().default(true),
    externalId: text('external_id'),
    fetchedAt: timestamp('fetched_at')
      .notNull()
      .defaultNow()
      .$defaultFn(() => new Date()),
    createdAt: createdAt(),
  },
  (t, { unique }) => [unique('external_blog_articles_source_url_unique').on(t.sourceId, t.url)],
);

/**
 * Reviews of the firm on other sites (Google, Avvo, ...), recorded by the firm as written there, each
 * with its page on that site (docs/decisions/029): the home page's external-review section shows the
 * visible ones, never invented ones. `reviewedOn` is the review's calendar date ('YYYY-MM-DD'), if given.
 */
export const externalReviews = table(
  'external_reviews',
  {
    id: id(),
    reviewerName: text('reviewer_name').notNull(),
    platform: text('platform').notNull(),
    rating: integer('rating').notNull(),
    content: text('content').notNull(),
    reviewUrl: text('review_url').notNull(),
    reviewedOn: text('reviewed_on'),
    isVisible: boolean('is_visible').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t, { check, index }) => [
    check('external_reviews_platform_values', isOneOf(t.platform, reviewPlatformValues)),
    check('external_reviews_rating_range', isBetween(t.rating, ratingRange)),
    index('external_reviews_created_at_idx').on(t.createdAt),
  ],
);

/**
 * Docs/decisions/010: the outbox of work for the outside world (e-mails, calendar events).
 * A row is written when something happens (a booking, a message) and a worker delivers it, retrying
 * with backoff; the row is the delivery log. `dedupeKey` makes "exactly once" a database rule (one
 * reminder per appointment). No foreign key to appointments: a deleted appointment's calendar event
 * must still be deleted, so the payload carries what the delivery needs.
 */
export const deliveries = table(
  'deliveries',
  {
    id: id(),
    channel: text('channel').notNull(),
    purpose: text('purpose').notNull(),
    appointmentId: text('appointment_id'),
    integrationId: text('integration_id'),
    recipient: text('recipient'),
    payload: text('payload').notNull(),
    dedupeKey: text('dedupe_key').unique(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at').notNull(),
    leaseExpiresAt: timestamp('lease_expires_at'),
    lastError: text('last_error'),
    externalRef: text('external_ref'),
    /**
     * A calendar delivery's calendar: the one its event (externalRef) is in, so a change or removal
     * still reaches it after another calendar was picked.
     */
    externalCalendar: text('external_calendar'),
    sentAt: timestamp('sent_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t, { check, index }) => [
    check('deliveries_channel_values', isOneOf(t.channel, deliveryChannels)),
    check('deliveries_status_values', isOneOf(t.status, deliveryStatuses)),
    // The runner's queue (`due` in api/deliveries/deliveries.repository.ts) reads only unfinished
    // rows, which stay few however long the log grows: in order, and the first of each appointment's.
    index('deliveries_unfinished_idx').on(t.createdAt, t.id).where(isOneOf(t.status, unfinishedDeliveryStatuses)),
    index('deliveries_unfinished_by_appointment_idx').on(t.appointmentId, t.channel, t.createdAt, t.id).where(isOneOf(t.status, unfinishedDeliveryStatuses)),
    index('deliveries_appointment_idx').on(t.appointmentId),
    index('deliveries_created_at_idx').on(t.createdAt),
  ],
);

export const componentVisibilitySettings = table('component_visibility_settings', {
  id: id(),
  componentKey: text('component_key').notNull().unique(),
  componentName: text('component_name').notNull(),
  description: text('description').notNull(),
  isVisible: boolean('is_visible').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * The firm's availability (docs/decisions/032), edited on /admin/availability: one row of booking
 * rules (its id is always 'firm'), the consultation hours of each weekday (1 Monday … 5 Friday; none:
 * closed that day; two around a lunch break), and the firm's own closures (first and last day, both
 * closed, as firm dates 'YYYY-MM-DD'). Migration 0013 stores the rules that were code until then.
 */
export const bookingRules = table(
  'booking_rules',
  {
    id: text('id').primaryKey(),
    observeHolidays: boolean('observe_holidays').notNull().default(true),
    minimumNoticeHours: integer('minimum_notice_hours').notNull(),
    bookingHorizonDays: integer('booking_horizon_days').notNull(),
    updatedAt: updatedAt(),
  },
  (t, { check }) => [
    check('booking_rules_one_row', sql`${t.id} = 'firm'`),
    check('booking_rules_notice_range', isBetween(t.minimumNoticeHours, { min: 0, max: 720 })),
    check('booking_rules_horizon_range', isBetween(t.bookingHorizonDays, { min: 1, max: 730 })),
  ],
);

export const bookingHours = table(
  'booking_hours',
  {
    id: id(),
    weekday: integer('weekday').notNull(),
    /** Firm wall-clock times, 'HH:MM': start inclusive, end exclusive. */
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
  },
  (t, { check, unique }) => [
    check('booking_hours_weekday_range', isBetween(t.weekday, { min: 1, max: 5 })),
    check('booking_hours_start_before_end', sql`${t.startTime} < ${t.endTime}`),
    unique('booking_hours_weekday_start_unique').on(t.weekday, t.startTime),
  ],
);

export const bookingClosures = table(
  'booking_closures',
  {
    id: id(),
    firstDay: text('first_day').notNull(),
    lastDay: text('last_day').notNull(),
    /** What a visitor reads: "We are closed that day (reason)." */
    reason: text('reason').notNull(),
    createdAt: createdAt(),
  },
  (t, { check, index }) => [
    check('booking_closures_first_before_last', sql`${t.firstDay} <= ${t.lastDay}`),
    index('booking_closures_first_day_idx').on(t.firstDay),
  ],
);

/**
 * Docs/decisions/011: one row per run of the one-way migration to DynamoDB. `progress` is JSON
 * text: per kind, done and total and the checkpoint (the last id written with every id before it), so
 * a run resumes where it stopped and the wizard's progress bars survive a reload. `owner` and the
 * lease say which process is running it; a 'running' run whose lease ran out was interrupted. At most one run is 'running'.
 */
export const migrationRuns = table(
  'migration_runs',
  {
    id: id(),
    tableName: text('table_name').notNull(),
    state: text('state').notNull().default('running'),
    progress: text('progress').notNull(),
    error: text('error'),
    owner: text('owner'),
    leaseExpiresAt: timestamp('lease_expires_at'),
    startedAt: timestamp('started_at').notNull(),
    finishedAt: timestamp('finished_at'),
    updatedAt: updatedAt(),
  },
  (t, { check, index, uniqueIndex }) => [
    check('migration_runs_state_values', isOneOf(t.state, migrationRunStates)),
    index('migration_runs_started_at_idx').on(t.startedAt),
    // At most one run copies at a time, whichever process starts it: two starts at the same instant
    // cannot both insert (or resume) a running run (docs/decisions/011).
    uniqueIndex('migration_runs_one_running').on(t.state).where(sql`${t.state} = 'running'`),
  ],
);

/**
 * The embedded identity service (docs/decisions/014): a Cognito-compatible user pool kept in the
 * site's own database, so every container shares its users, keys, sessions and lockouts. Nothing
 * secret is stored in the clear: passwords and codes are scrypt/HMAC hashes, refresh tokens are
 * hashed, signing keys are encrypted with the install's secrets key.
 */
export const identityPools = table('identity_pools', {
  id: text('id').primaryKey(),
  clientId: text('client_id').notNull().unique(),
  createdAt: createdAt(),
});

export const identitySigningKeys = table('identity_signing_keys', {
  kid: text('kid').primaryKey(),
  publicJwk: text('public_jwk').notNull(),
  privateKey: text('private_key').notNull(),
  createdAt: createdAt(),
  retiredAt: timestamp('retired_at'),
});

export const identityUsers = table(
  'identity_users',
  {
    id: id(),
    username: text('username').notNull(),
    usernameKey: text('username_key').notNull().unique(),
    email: text('email').notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    passwordHash: text('password_hash').notNull(),
    status: text('status').notNull().default('UNCONFIRMED'),
    enabled: boolean('enabled').notNull().default(true),
    isAdmin: boolean('is_admin').notNull().default(false),
    /**
     * The address, normalised (NFKC, lower case), once the account is confirmed: one confirmed account
     * per address. Null while unconfirmed.
     */
    emailKey: text('email_key').unique(),
    /** A confirmed sign-up on ADMIN_EMAILS asks to be an admin; an admin approves or refuses it. */
    adminRequestedAt: timestamp('admin_requested_at'),
    /** SRP's salt and verifier (USER_SRP_AUTH), sealed with the install's secrets key; null until the password is next set or used. */
    srpVerifier: text('srp_verifier'),
    /** The TOTP secret (sealed), once verified; a secret being associated waits in mfaPendingSecret. */
    mfaSecret: text('mfa_secret'),
    mfaPendingSecret: text('mfa_pending_secret'),
    /** SOFTWARE_TOKEN_MFA is the user's preference: every sign-in asks for a code. */
    mfaEnabled: boolean('mfa_enabled').notNull().default(false),
    /** The last TOTP time step accepted: each code is used once. */
    mfaLastStep: integer('mfa_last_step'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t, { check }) => [check('identity_users_status_values', isOneOf(t.status, identityUserStatuses))],
);

/**
 * An admin's invitation to a colleague: a single-use, expiring link, e-mailed, whose holder sets a
 * password and is an admin. Only the token's digest is kept.
 */
export const identityInvitations = table(
  'identity_invitations',
  {
    id: id(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The inviting admin's username. */
    invitedBy: text('invited_by').notNull(),
    expiresAt: timestamp('expires_at').notNull(),
    acceptedAt: timestamp('accepted_at'),
    revokedAt: timestamp('revoked_at'),
    createdAt: createdAt(),
  },
  (t, { index }) => [index('identity_invitations_expires_idx').on(t.expiresAt)],
);

/**
 * A sign-in under way (Cognito's `Session`): the SRP exchange's server secret, or a password already
 * checked that waits for a TOTP code or an MFA set-up. Single use, short-lived, its state sealed.
 */
export const identityChallenges = table(
  'identity_challenges',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => identityUsers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    state: text('state').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t, { index }) => [index('identity_challenges_user_idx').on(t.userId), index('identity_challenges_expires_idx').on(t.expiresAt)],
);

/**
 * Mail with nowhere else to go (no e-mail setting yet, or a message held), kept in the shared
 * database for every container, sealed with the install's secrets key (codes, manage links and
 * clients' names are never readable at rest), and kept 30 days at most.
 */
export const outboxMessages = table(
  'outbox_messages',
  {
    id: id(),
    /** The delivery it was held for, if any (not an identity code): erased with it. */
    deliveryId: text('delivery_id'),
    /** The message (to, subject, text, html, attachments) as sealed JSON. */
    sealed: text('sealed').notNull(),
    createdAt: createdAt(),
  },
  (t, { index }) => [index('outbox_messages_created_at_idx').on(t.createdAt), index('outbox_messages_delivery_idx').on(t.deliveryId)],
);

export const identityCodes = table(
  'identity_codes',
  {
    userId: text('user_id')
      .notNull()
      .references(() => identityUsers.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t, { check, unique }) => [
    unique('identity_codes_user_purpose').on(t.userId, t.purpose),
    check('identity_codes_purpose_values', isOneOf(t.purpose, identityCodePurposes)),
  ],
);

export const identitySessions = table(
  'identity_sessions',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => identityUsers.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    refreshHash: text('refresh_hash').notNull(),
    expiresAt: timestamp('expires_at').notNull(),
    revokedAt: timestamp('revoked_at'),
    createdAt: createdAt(),
  },
  (t, { index }) => [index('identity_sessions_user_idx').on(t.userId), index('identity_sessions_expires_idx').on(t.expiresAt)],
);

export const identityThrottles = table('identity_throttles', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lockedUntil: timestamp('locked_until'),
  windowStartedAt: timestamp('window_started_at').notNull(),
  updatedAt: updatedAt(),
});

/**
 * A public POST's answer, kept under the Idempotency-Key the island sent, so a retry after a lost
 * answer gets the first answer instead of a second row (docs/decisions/016).
 */
export const idempotencyKeys = table(
  'idempotency_keys',
  {
    key: text('key').primaryKey(),
    fingerprint: text('fingerprint').notNull(),
    statusCode: integer('status_code'),
    responseBody: text('response_body'),
    createdAt: createdAt(),
  },
  (t, { index }) => [index('idempotency_keys_created_at_idx').on(t.createdAt)],
);

/**
 * Every public content change, numbered (docs/decisions/017): containers sharing the database
 * announce each other's changes with LISTEN/NOTIFY, and one that missed some reads them here.
 * Kept for a day (housekeeping). SQLite is one process: there the table is kept for parity.
 */
export const contentChanges = table(
  'content_changes',
  {
    id: identity('id'),
    topic: text('topic').notNull(),
    /** JSON array of the slugs or keys the change touched, or null. */
    keys: text('keys'),
    /** The process that made the change (it announced it to itself already). */
    origin: text('origin').notNull(),
    createdAt: createdAt(),
  },
  (t, { index }) => [index('content_changes_created_at_idx').on(t.createdAt)],
);

/** What the calendar log (issue 20) records: a provider that could not be read, read again, or an overlap the site could not refuse. */
export const calendarNoticeKinds = ['unreachable', 'reachable-again', 'overlap'] as const;

/**
 * The calendar log (issue 20, decision 036): what the firm's calendars did that the admin should
 * know, shown on the Integrations screen. One row per outage (an 'unreachable' row is open, endedAt
 * null, while it lasts: later failures raise its count and lastSeenAt), not one per request.
 * Operational, like the delivery log: not migrated from DynamoDB. No client's personal data: times
 * and consultation types only.
 */
export const calendarNotices = table(
  'calendar_notices',
  {
    id: id(),
    /** The integration it is about; kept (no foreign key) when the integration is deleted, as the delivery log keeps it. */
    integrationId: text('integration_id'),
    /** 'Google Calendar', 'Outlook', 'Calendly': the log still names it after the integration is gone. */
    provider: text('provider').notNull(),
    kind: text('kind').notNull(),
    message: text('message').notNull(),
    firstSeenAt: timestamp('first_seen_at').notNull(),
    lastSeenAt: timestamp('last_seen_at').notNull(),
    count: integer('count').notNull().default(1),
    /** When it ended; null while an outage lasts. */
    endedAt: timestamp('ended_at'),
  },
  (t, { check, index }) => [
    check('calendar_notices_kind_values', isOneOf(t.kind, calendarNoticeKinds)),
    index('calendar_notices_last_seen_idx').on(t.lastSeenAt),
    index('calendar_notices_open_idx').on(t.integrationId, t.kind).where(sql`${t.endedAt} is null`),
  ],
);

/**
 * Readiness's write probe (GET /api/health/ready): each process writes its own row at most once a
 * second, so a database that cannot take a write (a full disk, a read-only replica after a failover)
 * turns the container unready before a visitor's booking finds out.
 */
export const healthProbes = table('health_probes', {
  origin: text('origin').primaryKey(),
  checkedAt: timestamp('checked_at').notNull(),
});

/**
 * A CDN purge that did not go through (the CDN's purge API down or refusing): kept here, where every
 * container sees it, and sent again with back-off by whichever container claims it first, until the
 * CDN confirms. Without it a missed purge left the old page at the CDN for its s-maxage (a day).
 */
export const cdnPurges = table(
  'cdn_purges',
  {
    id: id(),
    /** JSON arrays of the surrogate keys and (for CloudFront) paths to purge. */
    keys: text('keys').notNull(),
    paths: text('paths').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at').notNull(),
    leaseExpiresAt: timestamp('lease_expires_at'),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t, { index }) => [index('cdn_purges_next_attempt_idx').on(t.nextAttemptAt)],
);
