/**
 * The one-way migration to DynamoDB, as both sides see it. The kinds are SPEC §2's list,
 * in its order, with its wording; the API and the wizard page share these shapes.
 */
export const migrationKinds = [
  { kind: 'testimonials', label: 'Testimonials' },
  { kind: 'blog_posts', label: 'Blog posts' },
  { kind: 'contact_submissions', label: 'Contact submissions' },
  { kind: 'probate_calculations', label: 'Probate calculations' },
  { kind: 'theme_settings', label: 'Theme settings' },
  { kind: 'appointments', label: 'Appointments' },
  { kind: 'calendar_settings', label: 'Calendar settings' },
  { kind: 'email_settings', label: 'Email settings' },
  { kind: 'blog_sources', label: 'Blog sources' },
  { kind: 'external_blog_articles', label: 'External articles' },
  { kind: 'component_visibility_settings', label: 'Component visibility' },
  { kind: 'users', label: 'User data' },
] as const;

export type MigrationKind = (typeof migrationKinds)[number]['kind'];

/** GET /api/admin/migration/status (SPEC §3 Migration status, plus what the page shows beside it). */
export interface MigrationStatus {
  postgresConfigured: boolean;
  awsConfigured: boolean;
  awsRegion: string | null;
  ready: boolean;
  /** Which relational database the site runs on. */
  database: 'sqlite' | 'postgres';
  tableName: string;
}

export interface MigrationKindProgress {
  kind: MigrationKind;
  label: string;
  done: number;
  total: number;
}

/** A migration run: progress per kind, kept in the relational database so it survives reloads and restarts. */
export interface MigrationRun {
  id: string;
  state: 'running' | 'completed' | 'failed' | 'interrupted';
  startedAt: string;
  finishedAt: string | null;
  /** The failure, in words an admin can act on (failed or interrupted runs). */
  error: string | null;
  kinds: MigrationKindProgress[];
}

/** POST /api/admin/migration/create-table */
export interface CreateTableResult {
  tableName: string;
  /** false when the table already existed (running it twice is harmless). */
  created: boolean;
  /** The same definition as an AWS CLI command an operator can run. */
  cliCommand: string;
  /** The CreateTable input, as JSON. */
  definition: unknown;
}

export interface VerificationMismatch {
  kind: MigrationKind;
  /** The item's id in the relational database. */
  id: string;
  problem: string;
}

/** POST /api/admin/migration/verify: 'Verification Complete' only when ok. */
export interface VerificationResult {
  ok: boolean;
  kinds: { kind: MigrationKind; label: string; source: number; target: number; mismatches: number }[];
  /** Every mismatch, up to the first 500. */
  mismatches: VerificationMismatch[];
}

/**
 * SPEC §8's setup alert: 'All systems ready for migration!' when ready; otherwise what is missing,
 * naming the relational database the site runs on and the cloud credentials, then 'Please check your
 * environment configuration.' (with both missing on PostgreSQL, exactly SPEC's sentence).
 */
export function migrationSetupAlert(status: Pick<MigrationStatus, 'postgresConfigured' | 'awsConfigured' | 'database'>): string {
  if (status.postgresConfigured && status.awsConfigured) return 'All systems ready for migration!';
  const missing = [
    status.postgresConfigured ? null : `${status.database === 'sqlite' ? 'SQLite' : 'PostgreSQL'} not connected.`,
    status.awsConfigured ? null : 'AWS credentials not configured.',
  ].filter(Boolean);
  return `${missing.join(' ')} Please check your environment configuration.`;
}
