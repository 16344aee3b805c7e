/**
 * Rows to DynamoDB items, one mapping per kind of SPEC §2's list (docs/decisions/011).
 * - Every column of the row becomes an attribute of the same (SPEC §3) name, plus `kind` and the keys.
 * - Timestamps: ISO 8601 in UTC ("2025-03-01T17:30:00.000Z"), which also sorts as text in the indexes.
 * - Money: a DynamoDB number made from the decimal text ("1234567890.12"), never through a JS float;
 *   DynamoDB numbers are exact decimals of up to 38 digits.
 * - Null stays an explicit NULL attribute, so an item shows every field of its row.
 * - users: the password column is never read nor written. Accounts live in the user pool (decision
 *   005); a password, even hashed, has no use in DynamoDB and would only be a liability.
 * JSON held in text (theme variables, integration configs) is copied as the same text, byte for byte.
 */
import { createHash } from 'node:crypto';
import { NumberValue } from '@aws-sdk/lib-dynamodb';
import type { Tables } from '../../db/client.ts';
import { migrationKinds, type MigrationKind } from '../../src/shared/migration.ts';
import type { KeyAttributeName } from './table-design.ts';

export type Row = Record<string, unknown> & { id: string };
export type Item = Record<string, unknown>;
type Keys = Partial<Record<KeyAttributeName, string | null | undefined>>;

export interface KindMapping {
  kind: MigrationKind;
  /** The key prefix: PK "<ENTITY>#<id>", SK "<ENTITY>". */
  entity: string;
  table: keyof Tables;
  /** Columns never read from the relational database. */
  omit?: readonly string[];
  /** Decimal columns, written as DynamoDB numbers from their text. */
  money?: readonly string[];
  /** Index keys; a missing or null value leaves the item out of that index. */
  indexes(row: Row): Keys;
}

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));
/** Sort key "time#id": chronological as text, unique when two rows share an instant. */
const at = (value: unknown, id: string) => `${iso(value)}#${id}`;
const when = (condition: unknown, value: string) => (condition ? value : undefined);
/** URLs may exceed an index key's size limit; their digest names them as uniquely. */
const digest = (text: string) => createHash('sha256').update(text).digest('hex');

const mappings: Record<MigrationKind, KindMapping> = {
  testimonials: {
    kind: 'testimonials',
    entity: 'TESTIMONIAL',
    table: 'testimonials',
    indexes: (r) => ({
      GSI1PK: 'TESTIMONIALS',
      GSI1SK: at(r.createdAt, r.id),
      GSI3PK: when(r.isPublished, 'TESTIMONIALS#PUBLISHED'),
      GSI3SK: when(r.isPublished, at(r.createdAt, r.id)),
    }),
  },
  blog_posts: {
    kind: 'blog_posts',
    entity: 'POST',
    table: 'blogPosts',
    indexes: (r) => ({
      GSI1PK: 'POSTS',
      GSI1SK: at(r.createdAt, r.id),
      GSI2PK: `POST_SLUG#${r.slug}`,
      GSI2SK: 'POST',
      // Published posts by publication date: the blog page and the home page's latest three.
      GSI3PK: when(r.isPublished, 'POSTS#PUBLISHED'),
      GSI3SK: when(r.isPublished, at(r.publishedAt ?? r.createdAt, r.id)),
    }),
  },
  contact_submissions: {
    kind: 'contact_submissions',
    entity: 'CONTACT',
    table: 'contactSubmissions',
    indexes: (r) => ({ GSI1PK: 'CONTACTS', GSI1SK: at(r.createdAt, r.id) }),
  },
  probate_calculations: {
    kind: 'probate_calculations',
    entity: 'PROBATE',
    table: 'probateCalculations',
    money: ['estateValue', 'realEstateValue', 'attorneyFees', 'executorFees', 'courtCosts', 'totalProbate', 'trustCost', 'savings'],
    indexes: (r) => ({ GSI1PK: 'PROBATE_CALCULATIONS', GSI1SK: at(r.createdAt, r.id) }),
  },
  theme_settings: {
    kind: 'theme_settings',
    entity: 'THEME',
    table: 'themeSettings',
    indexes: (r) => ({
      GSI1PK: 'THEMES',
      GSI1SK: String(r.name),
      GSI2PK: `THEME_NAME#${r.name}`,
      GSI2SK: 'THEME',
      GSI3PK: when(r.isActive, 'THEMES#ACTIVE'),
      GSI3SK: when(r.isActive, String(r.name)),
    }),
  },
  appointments: {
    kind: 'appointments',
    entity: 'APPOINTMENT',
    table: 'appointments',
    indexes: (r) => ({
      // By date (availability, the admin list) and by status and date (the admin's status filter).
      GSI1PK: 'APPOINTMENTS',
      GSI1SK: at(r.scheduledDate, r.id),
      GSI2PK: when(r.externalEventId, `APPOINTMENT_EVENT#${r.externalEventId}`),
      GSI2SK: when(r.externalEventId, 'APPOINTMENT'),
      GSI3PK: `APPOINTMENTS#${r.status}`,
      GSI3SK: at(r.scheduledDate, r.id),
    }),
  },
  calendar_settings: {
    kind: 'calendar_settings',
    entity: 'CALENDAR',
    table: 'calendarSettings',
    indexes: (r) => ({
      GSI1PK: 'CALENDAR_SETTINGS',
      GSI1SK: at(r.createdAt, r.id),
      GSI3PK: when(r.isActive, 'CALENDAR_SETTINGS#ACTIVE'),
      GSI3SK: when(r.isActive, at(r.createdAt, r.id)),
    }),
  },
  email_settings: {
    kind: 'email_settings',
    entity: 'EMAIL',
    table: 'emailSettings',
    indexes: (r) => ({
      GSI1PK: 'EMAIL_SETTINGS',
      GSI1SK: at(r.createdAt, r.id),
      GSI3PK: when(r.isActive, 'EMAIL_SETTINGS#ACTIVE'),
      GSI3SK: when(r.isActive, at(r.createdAt, r.id)),
    }),
  },
  blog_sources: {
    kind: 'blog_sources',
    entity: 'SOURCE',
    table: 'blogSources',
    indexes: (r) => ({
      GSI1PK: 'BLOG_SOURCES',
      GSI1SK: at(r.createdAt, r.id),
      GSI3PK: when(r.isActive, 'BLOG_SOURCES#ACTIVE'),
      GSI3SK: when(r.isActive, at(r.createdAt, r.id)),
    }),
  },
  external_blog_articles: {
    kind: 'external_blog_articles',
    entity: 'ARTICLE',
    table: 'externalBlogArticles',
    indexes: (r) => ({
      GSI1PK: 'ARTICLES',
      GSI1SK: at(r.publishedAt ?? r.fetchedAt, r.id),
      // (source, url) is unique in the relational schema: the fetcher's "seen it already" lookup.
      GSI2PK: `ARTICLE_URL#${r.sourceId}#${digest(String(r.url))}`,
      GSI2SK: 'ARTICLE',
      GSI3PK: `ARTICLES#SOURCE#${r.sourceId}`,
      GSI3SK: at(r.publishedAt ?? r.fetchedAt, r.id),
    }),
  },
  component_visibility_settings: {
    kind: 'component_visibility_settings',
    entity: 'COMPONENT',
    table: 'componentVisibilitySettings',
    indexes: (r) => ({
      GSI1PK: 'COMPONENTS',
      GSI1SK: String(r.componentKey),
      GSI2PK: `COMPONENT_KEY#${r.componentKey}`,
      GSI2SK: 'COMPONENT',
    }),
  },
  users: {
    kind: 'users',
    entity: 'USER',
    table: 'users',
    omit: ['password'],
    indexes: (r) => ({ GSI1PK: 'USERS', GSI1SK: String(r.username), GSI2PK: `USERNAME#${r.username}`, GSI2SK: 'USER' }),
  },
};

/** SPEC §2's list, in its order. */
export const kindMappings: KindMapping[] = migrationKinds.map(({ kind }) => mappings[kind]);
export const mappingOf = (kind: MigrationKind): KindMapping => mappings[kind];

export const itemKey = (mapping: KindMapping, id: string) => ({ PK: `${mapping.entity}#${id}`, SK: mapping.entity });

/** The kind and row id an item's key names, or null for an item that is not ours. */
export function kindOfKey(pk: unknown, sk: unknown): { kind: MigrationKind; id: string } | null {
  if (typeof pk !== 'string' || typeof sk !== 'string') return null;
  const mapping = kindMappings.find((m) => m.entity === sk && pk.startsWith(`${m.entity}#`));
  return mapping ? { kind: mapping.kind, id: pk.slice(mapping.entity.length + 1) } : null;
}

function attributeValue(value: unknown, isMoney: boolean): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  // The decimal text as read (pg numeric: "1234.50"; SQLite: the canonical text), never a float.
  if (isMoney) return NumberValue.from(String(value));
  return value;
}

/** The item a row becomes: `kind`, the keys, then every column (SPEC §3 names). */
export function toItem(mapping: KindMapping, row: Row): Item {
  const item: Item = { ...itemKey(mapping, row.id), kind: mapping.kind };
  for (const [name, value] of Object.entries(mapping.indexes(row))) {
    if (value !== undefined && value !== null) item[name] = value;
  }
  for (const [field, value] of Object.entries(row)) {
    if (mapping.omit?.includes(field)) continue;
    item[field] = attributeValue(value, mapping.money?.includes(field) ?? false);
  }
  return item;
}

// ---------------------------------------------------------------------------------------------
// Comparison (the verifier): what DynamoDB holds against what the row would become.
// ---------------------------------------------------------------------------------------------

/** "0010.50" -> "10.5", "-0" -> "0": DynamoDB returns numbers without the decimal's trailing zeros. */
export function canonicalDecimal(text: string): string {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!m) return text;
  const whole = (m[2] ?? '').replace(/^0+(?=\d)/, '') || '0';
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  const sign = m[1] === '-' && (whole !== '0' || fraction !== '') ? '-' : '';
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

function comparable(value: unknown): unknown {
  if (value instanceof NumberValue) return `N:${canonicalDecimal(value.value)}`;
  if (typeof value === 'number' || typeof value === 'bigint') return `N:${canonicalDecimal(String(value))}`;
  if (typeof value === 'string') return `S:${value}`;
  if (value === undefined) return undefined;
  return JSON.stringify(value);
}

/** The attributes whose values differ, are missing, or should not be there (sorted). */
export function differingAttributes(expected: Item, actual: Item): string[] {
  const names = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  return [...names].filter((name) => comparable(expected[name]) !== comparable(actual[name])).sort();
}
