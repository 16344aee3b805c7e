/**
 * Hostile input: generated malformed bodies, wrong types, missing and extra fields,
 * huge strings, unicode edge cases, JSON bombs, invalid JSON, wrong content types and odd ids thrown
 * (with fast-check) at every public and admin route of the API, on SQLite and PostgreSQL. For every
 * request: never a 5xx, a 4xx always answers the one JSON error shape, and a refused request writes
 * nothing (the row count of every table, the deliveries outbox included, and the rows of the table
 * it aims at are unchanged). Valid but odd input (names in any script, emoji, RTL marks, combining
 * marks) is accepted and stored exactly. Then one plain test per defect the properties found, and
 * the theme stylesheet's confinement (/theme.css, api/site/theme-css.ts) over what the API stores.
 *
 * The catalogue of routes is checked against the app's own route table, so a new route without a
 * hostile-input entry fails here. A failing property prints its seed and shrunk counterexample;
 * FC_SEED=<seed> replays it.
 */
import { createHmac } from 'node:crypto';
import { eq, getTableName, is, sql, Table, type SQL } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { backgroundFetchesSettled } from '../../api/blog-sources/blog-source-fetcher.ts';
import { openConfig } from '../../api/crypto/sealed-config.ts';
import { themeStylesheet } from '../../api/site/theme-css.ts';
import { blogAuthors } from '../../src/config/firm.ts';
import { addDays, firmInstant } from '../../src/shared/firm-time.ts';
import { defaultBookingRulesSettings } from '../../src/shared/schemas/booking-rules.ts';
import {
  appointmentStatuses,
  blogCategories,
  bookingPracticeAreas,
  calendarProviders,
  consultationTypeValues,
  contactPracticeAreas,
  reviewPlatformValues,
  testimonialPracticeAreas,
} from '../../src/shared/constants.ts';
import { estimateProbate } from '../../src/shared/probate.ts';
import { findThemeTemplate } from '../../src/shared/theme-templates.ts';
import { confinedThemeCss } from '../support/theme-css.ts';
import { NOW } from '../support/appointment-requests.ts';
import { nthBookableDay } from '../support/bookable-days.ts';
import { ADMIN_TOKEN, forEachDialect, NON_ADMIN_TOKEN, type TestContext } from '../support/test-app.ts';

const CALENDLY_KEY = 'hostile-input-calendly-signing-key';

/** Runs per route: a few hundred where a body or parameter is read, fewer where nothing is. */
const RUNS = { body: 300, param: 100, query: 60, none: 25 } as const;
/** Text a header can carry (visible ASCII): what a client can put in Google's X-Goog-* headers. */
const headerText = fc.stringMatching(/^[!-~]{0,300}$/);
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;
const runs = (numRuns: number) => ({ numRuns, seed, endOnFailure: true });

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Body = Record<string, Json>;
type TableName = keyof TestContext['database']['t'];

// ---------------------------------------------------------------------------------------------
// Hostile values
// ---------------------------------------------------------------------------------------------

/** Strings people and attackers send that are still storable text (the "valid but odd"). */
const oddSamples = [
  'Zoë Ångström-Nuñez',
  'Zoe\u0308 (combining diaeresis)',
  'Z̷̢̛a̵̡͝l̴̨̛g̶̢͠o̷̧͝ ẗ̶́e̵͌͜x̸̛͜t̵',
  'e\u0301\u0301\u0301\u0301\u0301',
  '👨‍👩‍👧‍👦 family 🇺🇸 🏳️‍🌈',
  '𠜎𠜱𠝹𠱓 (astral CJK)',
  'محمد عبد الله',
  'שָׁלוֹם עֲלֵיכֶם',
  '\u202Eevil.exe\u202C (RTL override)',
  '\u2066isolate\u2069 \u200F rtl mark \u200E',
  'zero\u200Bwidth\u200Djoiner\u200C',
  'ǅungla ﷺ ﬁ ℌ',
  '\uFFFD replacement \uFFFF\uFFFE noncharacters',
  'tab\there, line\nbreak, cr\rlf',
  'bell\u0007 escape\u001B[31m control\u0001',
  "O'Brien-D'Arcy",
  'Robert"); DROP TABLE contact_submissions;--',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '{{constructor.constructor("alert(1)")()}}',
  '${7*7} #{7*7} <%= 7*7 %>',
  '../../../../etc/passwd',
  '%00 %2e%2e %ZZ \\u0000',
  'null',
  'undefined',
  '__proto__',
];

/** Text a database cannot keep as sent: refused with a field error (api/http/validate.ts). */
const unstorableSamples = ['a\u0000b', '\u0000', 'lone high \uD800 surrogate', 'lone low \uDFFF surrogate', '\uDC00\uD800 reversed pair'];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

/** Dates out of either database's range, read back wrongly (years before 100), impossible, or far away. */
const hostileDate = fc.constantFrom(
  '0000-01-01T00:00:00Z',
  '0099-06-01T00:00:00.000Z',
  '+010000-01-01T00:00:00Z',
  '-271821-04-20T00:00:00.000Z',
  '+275760-09-13T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  '2099-01-01T00:00:00.000Z',
  '2030-02-30T10:00:00Z',
  '2030-13-01',
  '1',
  '2030-07-01T16:00:00.000+14:00',
);

/** Numbers at the edges: of int32 and int64 columns, of safe integers, of doubles. */
const edgeNumber = fc.constantFrom(0, -1, -0, 0.5, 6, 11, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e308, -1e308, 5e-324);

/** Any string: every code point (NUL and controls included), graphemes, lone surrogates, samples. */
const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(...oddSamples, ...unstorableSamples),
  fc.tuple(fc.string({ maxLength: 10 }), loneSurrogate, fc.string({ maxLength: 10 })).map(([a, s, b]) => a + s + b),
  fc.constantFrom('', ' ', '\u00A0', '\uFEFF', '\u3000', '1e400', '-0', 'NaN', 'Infinity', '0x1F', '٣٤٥', '１２３', 'true', '[]', '{}'),
  hostileDate,
  // Huge: near, at and past the field limits, and past the 64 KB body limit (413).
  fc
    .tuple(fc.constantFrom(101, 201, 501, 2_001, 5_001, 20_001, 60_001, 70_000), fc.constantFrom('x', 'é', '😀', 'e\u0301', '<', ' '))
    .map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length))),
);

/** Any JSON value where a field belongs: wrong types, extreme numbers, nesting, huge arrays. */
const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, 5, 6, -0, [], {}) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Json>(new Array(20_000).fill(0), new Array(3_000).fill('x'), nestedArray(40), { $gt: '' }, {
      __proto__: null,
      constructor: { prototype: { isAdmin: true } },
    } as unknown as Json),
  },
);

function nestedArray(depth: number): Json {
  let v: Json = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

const arrayBomb = (n: number) => '['.repeat(n) + ']'.repeat(n);
const objectBomb = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

/** Request bodies that are not (or barely) JSON. */
const rawHostileBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '{',
    '}',
    '{"a":',
    '{"a":1,}',
    "{'a':1}",
    '[1,2',
    'null',
    'true',
    '0',
    '"text"',
    '[]',
    'NaN',
    'undefined',
    '{"a":NaN}',
    '{"a":Infinity}',
    '{"a":01}',
    '{"a":"\\x41"}',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    '\uFEFF{}',
    '/* comment */ {}',
    '{"a":1}{"b":2}',
    '\u0000',
    '\u0000\u0001\u0002\u0003',
    '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":true}}}',
    '{"\\u0000":1}',
    '{"\\ud800":"key is a lone surrogate"}',
  ),
  // JSON bombs: 10,000 levels of arrays or objects, unclosed nesting, a huge flat array.
  fc.constantFrom(
    arrayBomb(10_000),
    objectBomb(10_000),
    `{"firstName":${arrayBomb(10_000)}}`,
    '['.repeat(60_000),
    `[${new Array(30_000).fill('0').join(',')}]`,
    `{"a":[${new Array(20_000).fill('{}').join(',')}]}`,
    `{${new Array(5_000).fill('"k":1').join(',')}}`,
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.json({ maxDepth: 4 }),
);

/** Content types: mostly JSON (so the body reaches the schema), often not. */
const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/vnd.api+json',
      'application/json; charset=utf-16',
      'text/plain',
      'text/html',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=----x',
      'application/xml',
      'application/octet-stream',
      '',
      undefined,
    ),
  },
);

/** Ids that name nothing, raw or percent-encoded (a few are already escapes, some invalid ones). */
const oddId: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  fc.constantFrom(
    '0',
    '-1',
    'null',
    'undefined',
    '..',
    '.',
    '%2e%2e',
    '%00',
    'a%00b',
    '%ZZ',
    '%',
    '%E0%A4%A',
    '%ED%A0%80',
    '%C0%AF',
    '%2F',
    '%252F',
    '%20',
    encodeURIComponent("1' OR '1'='1"),
    encodeURIComponent('1; DROP TABLE testimonials'),
    '__proto__',
    'constructor',
    encodeURIComponent('{"$gt":""}'),
    encodeURIComponent('😀'),
    encodeURIComponent('\u202Etxt.exe'),
    'x'.repeat(64),
    'x'.repeat(65),
    'x'.repeat(5_000),
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encodeURIComponent),
);

/** Query strings with odd keys and values (repeated keys, escapes that decode to nothing valid). */
const oddQuery = (keys: string[]): fc.Arbitrary<string> =>
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...keys, '__proto__', 'constructor', ''), fc.string({ maxLength: 8 }).map(encodeURIComponent)),
        fc.oneof(
          hostileString.filter((s) => s.length < 3_000 && s.isWellFormed()).map(encodeURIComponent),
          fc.constantFrom('%00', '%ZZ', '%ED%A0%80', '', '1e999', '-1', '0', '201', '2030-02-30', '2030-04-02', 'email', 'calendar'),
        ),
      ),
      { maxLength: 5 },
    )
    .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));

/** Who sends an admin call: mostly the admin, sometimes no one, a forged token or a non-admin. */
const adminAuth = fc.oneof(
  { weight: 9, arbitrary: fc.constant<string | undefined>(`Bearer ${ADMIN_TOKEN}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<string | undefined>(
      undefined,
      'Bearer forged',
      `Bearer ${NON_ADMIN_TOKEN}`,
      `Basic ${ADMIN_TOKEN}`,
      'Bearer',
      `Bearer ${'x'.repeat(5_000)}`,
    ),
  },
);
const publicAuth = fc.oneof(
  { weight: 9, arbitrary: fc.constant<string | undefined>(undefined) },
  { weight: 1, arbitrary: fc.constantFrom<string | undefined>('Bearer forged', `Bearer ${ADMIN_TOKEN}`) },
);

// ---------------------------------------------------------------------------------------------
// Valid-but-odd text and valid payloads (the bodies the mutations start from)
// ---------------------------------------------------------------------------------------------

const storable = (s: string) => !s.includes('\u0000') && s.isWellFormed();

/** Text a required field accepts: storable, not blank once trimmed, within `max` (UTF-16 units, as zod counts). */
const oddText = (max: number, min = 1) =>
  fc
    .oneof(
      fc.constantFrom(...oddSamples),
      fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, 60) }),
      fc.string({ unit: 'binary', minLength: min, maxLength: Math.min(max, 60) }),
      fc.tuple(fc.constantFrom(...oddSamples), fc.string({ unit: 'grapheme', maxLength: 20 })).map(([a, b]) => `${b} ${a} ${b}`),
    )
    .filter((s) => storable(s) && s.trim().length >= min && s.trim().length <= max);

const slugText = fc.stringMatching(/^[a-z0-9]{1,12}(-[a-z0-9]{1,12}){0,3}$/);
const email = fc.constantFrom('ann@example.com', 'o.brien+law@example.co.uk', 'x@example.org');
const phone = fc.constantFrom('', '(619) 555-0142', '+1 619.555.0142 ext. 12', null);

/**
 * A bookable slot of the firm: the days it takes consultations from Monday 1 July 2030 on (no weekend
 * or holiday; tests/support/bookable-days.ts), on the hour (so no consultation overlaps the next),
 * 1,260 of them, all inside the booking window of the suite's clock. Kept apart: the booking
 * properties take 0-399, the odd-name bookings 400-499, Calendly 500-999, the suite's own appointment 1100.
 */
const SLOT_HOURS = ['09:00', '10:00', '11:00', '13:00', '14:00', '15:00', '16:00'];
const SLOTS = 180 * SLOT_HOURS.length;
function slotAt(index: number): string {
  if (index >= SLOTS) throw new Error(`slot ${index} is past the booking window`);
  const day = nthBookableDay('2030-07-01', Math.floor(index / SLOT_HOURS.length));
  return firmInstant(day, SLOT_HOURS[index % SLOT_HOURS.length]!).toISOString();
}
let nextSlot = 0;

const themeVariables = JSON.stringify(findThemeTemplate('professional-blue')!.cssVariables);

const valid = {
  contact: fc.record({
    firstName: oddText(100),
    lastName: oddText(100),
    email,
    phone,
    practiceArea: fc.constantFrom(...contactPracticeAreas),
    message: oddText(5000),
  }),
  probate: fc.integer({ min: 1, max: 5_000_000 }).map((value) => {
    const e = estimateProbate(value, 0);
    const money = (n: number) => n.toFixed(2);
    return {
      estateValue: money(value),
      realEstateValue: '0.00',
      attorneyFees: money(e.attorneyFees),
      executorFees: money(e.executorFees),
      courtCosts: money(e.courtCosts),
      totalProbate: money(e.totalProbate),
      trustCost: money(e.trustCost),
      savings: money(e.savings),
      userEmail: 'ann@example.com',
    };
  }),
  appointment: fc.record({
    firstName: oddText(100),
    lastName: oddText(100),
    email,
    phone,
    consultationType: fc.constantFrom(...consultationTypeValues),
    practiceArea: fc.constantFrom(...bookingPracticeAreas),
    notes: fc.oneof(oddText(2000), fc.constant(null)),
    scheduledDate: fc.nat(399).map(slotAt),
  }),
  testimonial: fc.record({
    clientName: oddText(100),
    rating: fc.integer({ min: 1, max: 5 }),
    content: oddText(2000),
    practiceArea: fc.constantFrom(...testimonialPracticeAreas),
    isPublished: fc.boolean(),
  }),
  externalReview: fc.record({
    reviewerName: oddText(100),
    platform: fc.constantFrom(...reviewPlatformValues),
    rating: fc.integer({ min: 1, max: 5 }),
    content: oddText(2000),
    reviewUrl: fc.constantFrom('https://www.google.com/maps/reviews/abc', 'https://www.yelp.com/biz/firm?hrid=Zoë', 'https://www.avvo.com/x'),
    reviewedOn: fc.constantFrom(null, '', '2025-06-30', '2024-02-29'),
    isVisible: fc.boolean(),
  }),
  blogPost: fc.record({
    title: oddText(200),
    // A slug of its own: one made from a title in a script with no ASCII form would be empty (a 400).
    slug: slugText,
    excerpt: oddText(500),
    // In a paragraph: text that is only markup (a sample is '<script>...') would sanitise to nothing (a 400).
    content: fc.oneof(
      oddText(1990).map((t) => `<p>${t}</p>`),
      fc.constant('<p>Plain <strong>article</strong> text.</p>'),
    ),
    category: fc.constantFrom(...blogCategories),
    author: fc.constantFrom(...blogAuthors),
    isPublished: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    publishedAt: fc.constantFrom(null, '', '2029-12-31T08:00:00.000Z', '2030-03-01'),
  }),
  theme: fc.record({
    name: slugText,
    displayName: oddText(80),
    description: oddText(500, 0),
    cssVariables: fc.constant(themeVariables),
    isActive: fc.constant(false),
    isDefault: fc.constant(false),
  }),
  componentVisibility: fc.record({
    componentKey: fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/),
    componentName: oddText(100),
    description: oddText(500, 0),
    isVisible: fc.boolean(),
  }),
  // A custom integration needs its webhook URL and key; the others may leave them out.
  calendarSetting: fc
    .record({
      provider: fc.constantFrom(...calendarProviders),
      config: oddText(2000),
      webhookUrl: fc.constantFrom('https://calendar.example.com/hook', null),
      apiKey: fc.constantFrom('k-1234567890abcdef', null),
    })
    .map((b) => (b.provider === 'custom' ? { ...b, webhookUrl: 'https://calendar.example.com/hook', apiKey: 'k-1234567890abcdef' } : b)),
  emailSetting: fc.record({
    provider: fc.constantFrom('sendgrid', 'smtp'),
    config: fc.constantFrom('{"apiKey":"SG.test","fromEmail":"intake@firm.example"}', '{"host":"127.0.0.1","port":9}'),
  }),
  // Loopback feed addresses are refused up front in this suite (allowPrivateNetworks off): nothing is fetched.
  blogSource: fc.record({
    name: oddText(120),
    url: fc.nat(9999).map((n) => `http://127.0.0.1:9/feed-${n}.xml`),
    type: fc.constantFrom('rss', 'api', 'scraper'),
    displayLimit: fc.integer({ min: 1, max: 10 }),
    config: fc.constantFrom(null, '{"itemsPath":"items"}'),
  }),
  // The firm's availability: any of it the form allows, with odd closure reasons (restored after its property).
  bookingRules: fc.record({
    hours: fc.constantFrom<Json>(
      defaultBookingRulesSettings.hours as unknown as Json,
      { ...defaultBookingRulesSettings.hours, friday: [] } as unknown as Json,
      { ...defaultBookingRulesSettings.hours, monday: [{ start: '09:00', end: '17:00' }], wednesday: [{ start: '10:30', end: '12:00' }] } as unknown as Json,
    ),
    observeHolidays: fc.boolean(),
    minimumNoticeHours: fc.integer({ min: 0, max: 720 }),
    bookingHorizonDays: fc.integer({ min: 31, max: 730 }),
    closures: fc.array(
      fc.record({ from: fc.constantFrom('2029-12-24', '2030-07-04', '2031-02-28'), days: fc.nat(20), reason: oddText(100) }).map(({ from, days, reason }) => ({
        from,
        to: addDays(from, days),
        reason,
      })),
      { maxLength: 4 },
    ),
  }),
  status: fc.record({ status: fc.constantFrom(...appointmentStatuses) }),
  visibility: fc.record({ isVisible: fc.boolean() }),
  graphNotification: fc.record({
    value: fc.array(
      fc.record({
        subscriptionId: fc.uuid(),
        clientState: oddText(120),
        changeType: fc.constantFrom('created', 'updated', 'deleted'),
        resource: fc.uuid().map((u) => `Users/calendar@firm.example.com/Events/${u}`),
        tenantId: fc.uuid(),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  }),
  calendly: fc
    .record({
      event: fc.constantFrom('invitee.created', 'invitee.canceled', 'routing_form_submission.created'),
      uri: fc.uuid().map((u) => `https://api.calendly.com/scheduled_events/E/invitees/${u}`),
      name: oddText(200),
      slot: fc.nat(499),
      question: oddText(200),
      answer: oddText(200),
    })
    .map(({ event, uri, name, slot, question, answer }) => {
      const start = slotAt(500 + slot);
      return {
        event,
        created_at: NOW,
        payload: {
          uri,
          email: 'invitee@example.com',
          name,
          scheduled_event: { name: 'Consultation', start_time: start, end_time: new Date(Date.parse(start) + 30 * 60_000).toISOString() },
          questions_and_answers: [{ question, answer }],
        },
      } as Body;
    }),
};

/** Sets `value` at `path`, creating objects on the way; `__proto__` and friends become own keys. */
function setAt(target: Body, path: string[], value: Json | undefined): Body {
  const copy = structuredClone(target);
  let node: Record<string, Json> = copy;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next))
      Object.defineProperty(node, key, { value: {}, enumerable: true, writable: true, configurable: true });
    node = node[key] as Record<string, Json>;
  }
  const last = path.at(-1)!;
  if (value === undefined) delete node[last];
  else Object.defineProperty(node, last, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/**
 * Characters to slip into an otherwise valid text field, so the request gets past the schema to the
 * database: NUL and lone surrogates most often (what a database cannot store), then bidi overrides,
 * zero-width and combining marks, astral and non-characters, controls, markup.
 */
const edgeChar = fc.oneof(
  { weight: 3, arbitrary: fc.constant('\u0000') },
  { weight: 3, arbitrary: loneSurrogate },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '\u202E',
      '\u2066',
      '\u200B',
      '\u200D',
      '\uFEFF',
      '\u0301',
      '😀',
      '👨‍👩‍👧',
      '\u0007',
      '\u001B',
      '\uFFFF',
      '\uFFFD',
      '\r\n',
      '\u2028',
      '<script>',
      '"\'',
      '\\',
    ),
  },
);

/** Reads the value at `path`, or undefined. */
function getAt(target: Body, path: string[]): Json | undefined {
  let node: Json | undefined = target;
  for (const key of path) node = node !== null && typeof node === 'object' && !Array.isArray(node) && Object.hasOwn(node, key) ? node[key] : undefined;
  return node;
}

/**
 * One change that keeps the field's type, so the request gets past the schema's type checks to the
 * rules and the database: an edge character slipped into text, a hostile date where a date is, an
 * edge number where a number is, the other type where a flag is.
 */
function nearlyValid(fields: string[][]): fc.Arbitrary<(body: Body) => Body> {
  const isDate = (v: Json | undefined) => v === null || (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v));
  return fc.tuple(fc.nat(), edgeChar, hostileDate, edgeNumber, fc.nat()).map(([pick, char, date, n, at]) => (b: Body) => {
    // Dates and numbers are few among a payload's fields and where the databases differ most: three times as likely.
    const weighted = fields.flatMap((f) => {
      const v = getAt(b, f);
      return isDate(v) || typeof v === 'number' ? [f, f, f] : [f];
    });
    const path = weighted[pick % weighted.length]!;
    const current = getAt(b, path);
    if (isDate(current)) return setAt(b, path, date);
    if (typeof current === 'string') {
      const i = at % (current.length + 1);
      return setAt(b, path, current.slice(0, i) + char + current.slice(i));
    }
    if (typeof current === 'number') return setAt(b, path, n);
    if (typeof current === 'boolean') return setAt(b, path, current ? 'false' : 0);
    return setAt(b, path, char);
  });
}

/** A valid payload with one to three fields replaced by hostile values, removed, added, or nearly valid. */
function mutated(validBody: fc.Arbitrary<Body>, fields: string[][]): fc.Arbitrary<Body> {
  const extra = fc.oneof(
    fc.constantFrom<string[]>(['__proto__'], ['constructor'], ['prototype'], ['id'], ['createdAt'], ['isAdmin'], ['role'], [''], ['\u0000'], ['\uD800']),
    fc.string({ maxLength: 12 }).map((k) => [k]),
  );
  type Mutation = (body: Body) => Body;
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(fc.constantFrom(...fields), hostileValue).map(
        ([path, value]): Mutation =>
          (b) =>
            setAt(b, path, value),
      ),
    },
    { weight: 4, arbitrary: nearlyValid(fields) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(...fields).map(
        (path): Mutation =>
          (b) =>
            setAt(b, path, undefined),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(extra, hostileValue).map(
        ([path, value]): Mutation =>
          (b) =>
            setAt(b, path, value),
      ),
    },
  );
  return fc.tuple(validBody, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([body, ms]) => ms.reduce((b, m) => m(b), body));
}

/** The body of a request: a nearly valid or a mutated valid payload (most), a duplicate key, or a raw hostile text. */
function bodyText(validBody: fc.Arbitrary<Body>, fields: string[][]): fc.Arbitrary<string> {
  const topFields = fields.filter((f) => f.length === 1).map((f) => f[0]!);
  return fc.oneof(
    { weight: 5, arbitrary: fc.tuple(validBody, nearlyValid(fields)).map(([b, m]) => JSON.stringify(m(b))) },
    { weight: 5, arbitrary: mutated(validBody, fields).map((b) => JSON.stringify(b)) },
    { weight: 1, arbitrary: validBody.map((b) => JSON.stringify(b)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(validBody, fc.constantFrom(...topFields), hostileValue)
        .map(([b, key, value]) => `${JSON.stringify(b).slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value)}}`),
    },
    { weight: 3, arbitrary: rawHostileBody },
  );
}

const fieldsOf = (...names: string[]) => names.map((n) => [n]);

// ---------------------------------------------------------------------------------------------
// The catalogue: every route of the app
// ---------------------------------------------------------------------------------------------

interface Hostile {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
  authorization?: string;
  headers?: Record<string, string>;
}

interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  route: string;
  runs: number;
  /** The requests to send (they may depend on records made in beforeAll). */
  requests: () => fc.Arbitrary<Hostile>;
  /** Tables whose rows (not only their count) a refused request must leave as they were. */
  watch?: TableName[];
  /** A 5xx that is the route's designed answer, not a failure (the migration without DynamoDB). */
  designed5xx?: (status: number, error: string) => boolean;
  /** Puts back what the accepted requests changed, for the tests that follow (the firm's availability). */
  after?: (ctx: TestContext) => Promise<void>;
}

/** Records made in beforeAll, for requests that aim at an existing row. */
const existing = {
  testimonial: '',
  externalReview: '',
  blogPost: '',
  appointment: '',
  manageToken: '',
  theme: '',
  calendarSetting: '',
  componentKey: 'hostile_widget',
  admins: ['hostile.admin.one', 'hostile.admin.two', 'HOSTILE.ADMIN.ONE'],
  /** A pending admin invitation's token (from its link) and id. */
  invitationToken: '',
  invitationId: '',
};

function catalogue(): Endpoint[] {
  const admin = adminAuth;
  const withParam = (route: string, id: fc.Arbitrary<string>) => id.map((v) => route.replace(/:\w+/, v));
  const idOrExisting = (current: () => string) => fc.oneof({ weight: 1, arbitrary: oddId }, { weight: 2, arbitrary: fc.constant(0).map(() => current()) });

  /** A JSON-body route: path, body, content type and authorization generated together. */
  const jsonRoute = (
    method: Endpoint['method'],
    route: string,
    body: fc.Arbitrary<string>,
    path: fc.Arbitrary<string> = fc.constant(route),
    isAdmin = route.startsWith('/api/admin'),
  ) => fc.record({ method: fc.constant(method), path, body, contentType, authorization: isAdmin ? admin : publicAuth }) as fc.Arbitrary<Hostile>;
  /** A route that reads no body: the path (and a query) vary, sometimes with a stray body. */
  const plainRoute = (
    method: Endpoint['method'],
    route: string,
    path: fc.Arbitrary<string> = fc.constant(route),
    query: fc.Arbitrary<string> = oddQuery(['limit', 'id']),
  ) =>
    fc
      .record({
        method: fc.constant(method),
        path: fc.tuple(path, query).map(([p, q]) => (q ? `${p}?${q}` : p)),
        body: method === 'GET' ? fc.constant(undefined) : fc.option(rawHostileBody, { freq: 3 }).map((b) => b ?? undefined),
        contentType,
        authorization: route.startsWith('/api/admin') ? admin : publicAuth,
      })
      .map((r) => r as Hostile);

  const migration5xx = (status: number, error: string) => status === 503 && error.endsWith('Please check your environment configuration.');

  const contactFields = fieldsOf('firstName', 'lastName', 'email', 'phone', 'practiceArea', 'message');
  const appointmentFields = fieldsOf(
    'firstName',
    'lastName',
    'email',
    'phone',
    'consultationType',
    'practiceArea',
    'notes',
    'scheduledDate',
    'duration',
    'status',
    'reminderSent',
  );
  const testimonialFields = fieldsOf('clientName', 'rating', 'content', 'practiceArea', 'isPublished');
  const externalReviewFields = fieldsOf('reviewerName', 'platform', 'rating', 'content', 'reviewUrl', 'reviewedOn', 'isVisible');
  const blogPostFields = fieldsOf(
    'title',
    'slug',
    'excerpt',
    'content',
    'category',
    'author',
    'isPublished',
    'publishedAt',
    'seoTitle',
    'seoDescription',
    'featuredImageUrl',
    'featuredImageAlt',
  );
  const themeFields = fieldsOf('name', 'displayName', 'description', 'cssVariables', 'isActive', 'isDefault');
  const probateFields = fieldsOf(
    'estateValue',
    'realEstateValue',
    'attorneyFees',
    'executorFees',
    'courtCosts',
    'totalProbate',
    'trustCost',
    'savings',
    'userEmail',
  );
  const calendlyFields = [
    ['event'],
    ['payload'],
    ['payload', 'uri'],
    ['payload', 'email'],
    ['payload', 'name'],
    ['payload', 'first_name'],
    ['payload', 'text_reminder_number'],
    ['payload', 'questions_and_answers'],
    ['payload', 'scheduled_event'],
    ['payload', 'scheduled_event', 'start_time'],
    ['payload', 'scheduled_event', 'end_time'],
    ['payload', 'scheduled_event', 'name'],
  ];
  /** Hostile CSS and markup where a theme's variables belong. */
  const hostileVariables = fc
    .constantFrom(
      '{"background":"0 0% 100%; } body { background: url(javascript:alert(1)) } :root {","foreground":"0 0% 0%","primary":"0 0% 0%","primary-foreground":"0 0% 100%"}',
      '{"background":"</style><script>window.__pwned(1)</script>","foreground":"0 0% 0%","primary":"0 0% 0%","primary-foreground":"0 0% 100%"}',
      '{"background":"0 0% 100%","foreground":"0 0% 0%","primary":"expression(alert(1))","primary-foreground":"0 0% 100%"}',
      '{"background":"0 0% 100%","foreground":"0 0% 0%","primary":"0 0% 0%","primary-foreground":"0 0% 100%","x;}*{display:none":"1"}',
      '{"background":"0 0% 100%","foreground":"0 0% 0%","primary":"0 0% 0%","primary-foreground":"0 0% 100%","radius":"1rem;}body{display:none"}',
      '{"background":"999 0% 100%","foreground":"0 0% 0%","primary":"0 0% 0%","primary-foreground":"0 0% 100%"}',
      '{"background":"0 0% 100%","foreground":"0 0% 0%","primary":"0 0% 0%","primary-foreground":"0 0% 100%","dark":{"background":"0 0% 0%;}*{display:none","foreground":"0 0% 100%","primary":"0 0% 100%","primary-foreground":"0 0% 0%"}}',
      '{"background":"0 0% 100%","foreground":"0 0% 0%","primary":"0 0% 0%","primary-foreground":"0 0% 100%","warm":["</style><script>window.__pwned(1)</script>"]}',
      arrayBomb(4_000),
      '"just a string"',
    )
    .map((cssVariables) => cssVariables as Json);

  return [
    // ----- public
    { method: 'GET', route: '/api/health', runs: RUNS.none, requests: () => plainRoute('GET', '/api/health') },
    { method: 'GET', route: '/api/health/ready', runs: RUNS.none, requests: () => plainRoute('GET', '/api/health/ready') },
    { method: 'GET', route: '/api/identity/config', runs: RUNS.none, requests: () => plainRoute('GET', '/api/identity/config') },
    { method: 'GET', route: '/api/testimonials', runs: RUNS.none, requests: () => plainRoute('GET', '/api/testimonials') },
    { method: 'GET', route: '/api/external-reviews', runs: RUNS.none, requests: () => plainRoute('GET', '/api/external-reviews') },
    { method: 'GET', route: '/api/blog-posts', runs: RUNS.none, requests: () => plainRoute('GET', '/api/blog-posts') },
    { method: 'GET', route: '/api/internal/article-slugs', runs: RUNS.none, requests: () => plainRoute('GET', '/api/internal/article-slugs') },
    {
      method: 'GET',
      route: '/api/blog-posts/:slug',
      runs: RUNS.param,
      requests: () => plainRoute('GET', '/api/blog-posts/:slug', withParam('/api/blog-posts/:slug', fc.oneof(oddId, slugText))),
    },
    // A draft's preview: its link's token in a header (anything printable, or a real one altered); it reads only.
    {
      method: 'GET',
      route: '/api/blog-post-preview',
      runs: RUNS.query,
      requests: () =>
        fc
          .record({
            request: plainRoute('GET', '/api/blog-post-preview', fc.constant('/api/blog-post-preview'), oddQuery(['token'])),
            token: fc.string({ unit: 'grapheme-ascii', maxLength: 300 }),
          })
          .map(({ request, token }) => ({ ...request, headers: { ...request.headers, 'X-Preview-Token': token } })),
    },
    { method: 'GET', route: '/api/external-blog-articles', runs: RUNS.none, requests: () => plainRoute('GET', '/api/external-blog-articles') },
    { method: 'GET', route: '/api/themes/active', runs: RUNS.none, requests: () => plainRoute('GET', '/api/themes/active') },
    { method: 'GET', route: '/api/component-visibility', runs: RUNS.none, requests: () => plainRoute('GET', '/api/component-visibility') },
    { method: 'GET', route: '/api/calendar-settings/active', runs: RUNS.none, requests: () => plainRoute('GET', '/api/calendar-settings/active') },
    { method: 'GET', route: '/api/email-settings/active', runs: RUNS.none, requests: () => plainRoute('GET', '/api/email-settings/active') },
    {
      method: 'GET',
      route: '/api/appointments/availability',
      runs: RUNS.query,
      requests: () =>
        plainRoute('GET', '/api/appointments/availability', fc.constant('/api/appointments/availability'), oddQuery(['date', 'consultationType'])),
    },
    // Self-service: the booking's token in its header (the real one, altered, or anything printable).
    ...(
      [
        ['GET', '/api/appointments/manage'],
        ['GET', '/api/appointments/manage/availability'],
        ['POST', '/api/appointments/manage/cancel'],
        ['POST', '/api/appointments/manage/reschedule'],
      ] as const
    ).map(
      ([method, route]): Endpoint => ({
        method,
        route,
        runs: RUNS.query,
        watch: ['appointments', 'appointmentSlotClaims'],
        requests: () =>
          fc
            .record({
              request:
                route === '/api/appointments/manage/reschedule'
                  ? jsonRoute('POST', route, bodyText(fc.constant({ scheduledDate: slotAt(1_102) }), [['scheduledDate']]))
                  : plainRoute(method, route, fc.constant(route), oddQuery(['date', 'token'])),
              token: fc.oneof(
                { weight: 3, arbitrary: fc.constant(0).map(() => existing.manageToken) },
                {
                  weight: 2,
                  arbitrary: fc
                    .constant(0)
                    .map(() => existing.manageToken)
                    .chain((t) => fc.nat(t.length - 1).map((i) => `${t.slice(0, i)}${t[i] === 'A' ? 'B' : 'A'}${t.slice(i + 1)}`)),
                },
                { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 300 }) },
              ),
            })
            .map(({ request, token }) => ({ ...request, headers: { ...request.headers, 'X-Booking-Token': token } })),
      }),
    ),
    { method: 'POST', route: '/api/contact', runs: RUNS.body, requests: () => jsonRoute('POST', '/api/contact', bodyText(valid.contact, contactFields)) },
    {
      method: 'POST',
      route: '/api/probate-calculator',
      runs: RUNS.body,
      requests: () => jsonRoute('POST', '/api/probate-calculator', bodyText(valid.probate, probateFields)),
    },
    {
      method: 'POST',
      route: '/api/appointments',
      runs: RUNS.body,
      requests: () => jsonRoute('POST', '/api/appointments', bodyText(valid.appointment, appointmentFields)),
    },
    {
      method: 'POST',
      route: '/api/integrations/calendly/webhook',
      runs: RUNS.body,
      // Signed as Calendly signs (most), or with a missing, malformed, stale or wrong signature.
      requests: () =>
        fc
          .record({
            body: bodyText(valid.calendly, calendlyFields),
            signature: fc.oneof(
              { weight: 5, arbitrary: fc.constant('sign') },
              {
                weight: 1,
                arbitrary: fc.constantFrom(
                  '',
                  't=1,v1=00',
                  'garbage',
                  `t=${Date.parse(NOW) / 1000 - 3600},v1=${'0'.repeat(64)}`,
                  `t=${Date.parse(NOW) / 1000},v1=${'a'.repeat(64)}`,
                  'v1=,t=',
                ),
              },
            ),
            contentType,
          })
          .map(({ body, signature, contentType: type }) => {
            const t = Math.floor(Date.parse(NOW) / 1000);
            const header = signature === 'sign' ? `t=${t},v1=${createHmac('sha256', CALENDLY_KEY).update(`${t}.${body}`).digest('hex')}` : signature;
            return { method: 'POST', path: '/api/integrations/calendly/webhook', body, contentType: type, headers: { 'Calendly-Webhook-Signature': header } };
          }),
    },
    {
      method: 'POST',
      route: '/api/integrations/google/notifications',
      runs: RUNS.body,
      // Google's headers naming channels that were never opened here, with made-up tokens and states,
      // and sometimes a stray body: refused alike (403, or 413 for a body), nothing synced or written.
      requests: () =>
        fc
          .record({
            channelId: fc.oneof(fc.uuid(), headerText),
            token: fc.option(headerText),
            state: fc.constantFrom('sync', 'exists', 'not_exists', '', 'SYNC'),
            body: fc.option(rawHostileBody, { freq: 3 }),
            contentType,
          })
          .map(({ channelId, token, state, body, contentType: type }) => ({
            method: 'POST',
            path: '/api/integrations/google/notifications',
            body: body ?? undefined,
            contentType: type,
            headers: { 'X-Goog-Channel-ID': channelId, ...(token === null ? {} : { 'X-Goog-Channel-Token': token }), 'X-Goog-Resource-State': state },
          })),
    },
    {
      method: 'POST',
      route: '/api/integrations/outlook/notifications',
      runs: RUNS.body,
      requests: () =>
        fc.oneof(
          // Graph's validation handshake: any token is echoed as plain text (none too long), nothing written.
          fc.record({ token: hostileString.filter((t) => t.isWellFormed()), contentType }).map(({ token, contentType: type }) => ({
            method: 'POST',
            path: `/api/integrations/outlook/notifications?validationToken=${encodeURIComponent(token)}`,
            contentType: type,
          })),
          // Change notifications for subscriptions that do not exist here, mutated.
          fc
            .record({ body: bodyText(valid.graphNotification, [['value']]), contentType })
            .map(({ body, contentType: type }) => ({ method: 'POST', path: '/api/integrations/outlook/notifications', body, contentType: type })),
        ),
    },
    // Connect's callbacks (issue 20): any state, code and error, with or without a binding cookie;
    // always a redirect with a fixed outcome code, nothing stored.
    ...(['google', 'outlook'] as const).map(
      (provider): Endpoint => ({
        method: 'GET',
        route: `/api/integrations/${provider}/callback`,
        runs: RUNS.query,
        watch: ['calendarSettings', 'calendarConnections', 'calendarAuthorizations'],
        requests: () =>
          fc
            .record({
              request: plainRoute(
                'GET',
                `/api/integrations/${provider}/callback`,
                fc.constant(`/api/integrations/${provider}/callback`),
                oddQuery(['state', 'code', 'error', 'scope']),
              ),
              cookie: fc.option(fc.string({ unit: 'grapheme-ascii', maxLength: 600 }), { freq: 2 }),
            })
            .map(({ request, cookie }) => (cookie === null ? request : { ...request, headers: { ...request.headers, cookie: `calendar_connect=${cookie}` } })),
      }),
    ),
    // ----- admin
    { method: 'GET', route: '/api/admin/session', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/session') },
    { method: 'GET', route: '/api/admin/testimonials', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/testimonials') },
    {
      method: 'POST',
      route: '/api/admin/testimonials',
      runs: RUNS.body,
      requests: () => jsonRoute('POST', '/api/admin/testimonials', bodyText(valid.testimonial, testimonialFields)),
    },
    {
      method: 'PUT',
      route: '/api/admin/testimonials/:id',
      runs: RUNS.body,
      watch: ['testimonials'],
      requests: () =>
        jsonRoute(
          'PUT',
          '/api/admin/testimonials/:id',
          bodyText(valid.testimonial, testimonialFields),
          withParam(
            '/api/admin/testimonials/:id',
            idOrExisting(() => existing.testimonial),
          ),
        ),
    },
    {
      method: 'DELETE',
      route: '/api/admin/testimonials/:id',
      runs: RUNS.param,
      requests: () => plainRoute('DELETE', '/api/admin/testimonials/:id', withParam('/api/admin/testimonials/:id', oddId)),
    },
    { method: 'GET', route: '/api/admin/external-reviews', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/external-reviews') },
    {
      method: 'POST',
      route: '/api/admin/external-reviews',
      runs: RUNS.body,
      requests: () => jsonRoute('POST', '/api/admin/external-reviews', bodyText(valid.externalReview, externalReviewFields)),
    },
    {
      method: 'PUT',
      route: '/api/admin/external-reviews/:id',
      runs: RUNS.body,
      watch: ['externalReviews'],
      requests: () =>
        jsonRoute(
          'PUT',
          '/api/admin/external-reviews/:id',
          bodyText(valid.externalReview, externalReviewFields),
          withParam(
            '/api/admin/external-reviews/:id',
            idOrExisting(() => existing.externalReview),
          ),
        ),
    },
    {
      method: 'DELETE',
      route: '/api/admin/external-reviews/:id',
      runs: RUNS.param,
      requests: () => plainRoute('DELETE', '/api/admin/external-reviews/:id', withParam('/api/admin/external-reviews/:id', oddId)),
    },
    { method: 'GET', route: '/api/admin/blog-posts', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/blog-posts') },
    {
      method: 'POST',
      route: '/api/admin/blog-posts',
      runs: RUNS.body,
      requests: () => jsonRoute('POST', '/api/admin/blog-posts', bodyText(valid.blogPost, blogPostFields)),
    },
    {
      method: 'PUT',
      route: '/api/admin/blog-posts/:id',
      runs: RUNS.body,
      watch: ['blogPosts', 'blogPostRedirects'],
      requests: () =>
        jsonRoute(
          'PUT',
          '/api/admin/blog-posts/:id',
          bodyText(valid.blogPost, blogPostFields),
          withParam(
            '/api/admin/blog-posts/:id',
            idOrExisting(() => existing.blogPost),
          ),
        ),
    },
    {
      method: 'POST',
      route: '/api/admin/blog-posts/:id/preview-link',
      runs: RUNS.param,
      requests: () => plainRoute('POST', '/api/admin/blog-posts/:id/preview-link', withParam('/api/admin/blog-posts/:id/preview-link', oddId)),
    },
    {
      method: 'DELETE',
      route: '/api/admin/blog-posts/:id/preview-links',
      runs: RUNS.param,
      requests: () => plainRoute('DELETE', '/api/admin/blog-posts/:id/preview-links', withParam('/api/admin/blog-posts/:id/preview-links', oddId)),
    },
    {
      method: 'DELETE',
      route: '/api/admin/blog-posts/:id',
      runs: RUNS.param,
      requests: () => plainRoute('DELETE', '/api/admin/blog-posts/:id', withParam('/api/admin/blog-posts/:id', oddId)),
    },
    { method: 'GET', route: '/api/admin/contact-submissions', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/contact-submissions') },
    {
      method: 'PUT',
      route: '/api/admin/contact-submissions/:id/read',
      runs: RUNS.param,
      requests: () => plainRoute('PUT', '/api/admin/contact-submissions/:id/read', withParam('/api/admin/contact-submissions/:id/read', oddId)),
    },
    {
      method: 'PUT',
      route: '/api/admin/contact-submissions/:id/resolved',
      runs: RUNS.param,
      requests: () => plainRoute('PUT', '/api/admin/contact-submissions/:id/resolved', withParam('/api/admin/contact-submissions/:id/resolved', oddId)),
    },
    {
      method: 'DELETE',
      route: '/api/admin/contact-submissions/:id',
      runs: RUNS.param,
      requests: () => plainRoute('DELETE', '/api/admin/contact-submissions/:id', withParam('/api/admin/contact-submissions/:id', oddId)),
    },
    { method: 'GET', route: '/api/admin/appointments', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/appointments') },
    {
      method: 'PUT',
      route: '/api/admin/appointments/:id',
      runs: RUNS.body,
      watch: ['appointments', 'appointmentSlotClaims'],
      requests: () =>
        jsonRoute(
          'PUT',
          '/api/admin/appointments/:id',
          bodyText(valid.status, fieldsOf('status')),
          withParam(
            '/api/admin/appointments/:id',
            idOrExisting(() => existing.appointment),
          ),
        ),
    },
    {
      method: 'DELETE',
      route: '/api/admin/appointments/:id',
      runs: RUNS.param,
      requests: () => plainRoute('DELETE', '/api/admin/appointments/:id', withParam('/api/admin/appointments/:id', oddId)),
    },
    { method: 'GET', route: '/api/admin/themes', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/themes') },
    {
      method: 'POST',
      route: '/api/admin/themes',
      runs: RUNS.body,
      requests: () =>
        jsonRoute(
          'POST',
          '/api/admin/themes',
          fc.oneof(
            { weight: 4, arbitrary: bodyText(valid.theme, themeFields) },
            { weight: 1, arbitrary: fc.tuple(valid.theme, hostileVariables).map(([t, vars]) => JSON.stringify({ ...t, cssVariables: vars })) },
          ),
        ),
    },
    {
      method: 'PUT',
      route: '/api/admin/themes/:id',
      runs: RUNS.body,
      watch: ['themeSettings'],
      requests: () =>
        jsonRoute(
          'PUT',
          '/api/admin/themes/:id',
          fc.oneof(
            { weight: 4, arbitrary: bodyText(valid.theme, fieldsOf('displayName', 'description', 'cssVariables')) },
            { weight: 1, arbitrary: fc.tuple(valid.theme, hostileVariables).map(([t, vars]) => JSON.stringify({ ...t, cssVariables: vars })) },
          ),
          withParam(
            '/api/admin/themes/:id',
            idOrExisting(() => existing.theme),
          ),
        ),
    },
    {
      method: 'PUT',
      route: '/api/admin/themes/:id/activate',
      runs: RUNS.param,
      requests: () => plainRoute('PUT', '/api/admin/themes/:id/activate', withParam('/api/admin/themes/:id/activate', oddId)),
    },
    {
      method: 'DELETE',
      route: '/api/admin/themes/:id',
      runs: RUNS.param,
      requests: () => plainRoute('DELETE', '/api/admin/themes/:id', withParam('/api/admin/themes/:id', oddId)),
    },
    { method: 'GET', route: '/api/admin/component-visibility', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/component-visibility') },
    {
      method: 'PUT',
      route: '/api/admin/component-visibility/:componentKey',
      runs: RUNS.body,
      watch: ['componentVisibilitySettings'],
      requests: () =>
        jsonRoute(
          'PUT',
          '/api/admin/component-visibility/:componentKey',
          bodyText(valid.visibility, fieldsOf('isVisible')),
          withParam('/api/admin/component-visibility/:componentKey', fc.oneof(oddId, fc.constant(existing.componentKey))),
        ),
    },
    {
      method: 'POST',
      route: '/api/admin/component-visibility',
      runs: RUNS.body,
      requests: () =>
        jsonRoute(
          'POST',
          '/api/admin/component-visibility',
          bodyText(valid.componentVisibility, fieldsOf('componentKey', 'componentName', 'description', 'isVisible')),
        ),
    },
    { method: 'GET', route: '/api/admin/calendar-settings', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/calendar-settings') },
    {
      method: 'POST',
      route: '/api/admin/calendar-settings',
      runs: RUNS.body,
      requests: () =>
        jsonRoute(
          'POST',
          '/api/admin/calendar-settings',
          fc.oneof(
            { weight: 4, arbitrary: bodyText(valid.calendarSetting, fieldsOf('provider', 'isActive', 'config', 'webhookUrl', 'apiKey')) },
            // Free-text configs shaped like JSON bombs: stored (SPEC §5 does not check them), and every list still reads.
            {
              weight: 1,
              arbitrary: fc
                .constantFrom(`{"a":${arrayBomb(9_000)}}`, objectBomb(3_000), arrayBomb(9_990))
                .map((config) => JSON.stringify({ provider: 'google', config })),
            },
          ),
        ),
    },
    {
      method: 'PUT',
      route: '/api/admin/calendar-settings/:id/activate',
      runs: RUNS.param,
      watch: ['calendarSettings'],
      requests: () => plainRoute('PUT', '/api/admin/calendar-settings/:id/activate', withParam('/api/admin/calendar-settings/:id/activate', oddId)),
    },
    {
      method: 'PUT',
      route: '/api/admin/calendar-settings/:id',
      runs: RUNS.body,
      requests: () =>
        jsonRoute(
          'PUT',
          '/api/admin/calendar-settings/:id',
          bodyText(fc.record({ name: oddText(80, 0) }), fieldsOf('name')),
          withParam(
            '/api/admin/calendar-settings/:id',
            idOrExisting(() => existing.calendarSetting),
          ),
        ),
    },
    {
      method: 'PUT',
      route: '/api/admin/calendar-settings/:id/deactivate',
      runs: RUNS.param,
      requests: () => plainRoute('PUT', '/api/admin/calendar-settings/:id/deactivate', withParam('/api/admin/calendar-settings/:id/deactivate', oddId)),
    },
    {
      method: 'PUT',
      route: '/api/admin/calendar-settings/:id/settings',
      runs: RUNS.body,
      requests: () =>
        jsonRoute(
          'PUT',
          '/api/admin/calendar-settings/:id/settings',
          bodyText(
            fc.record({ config: oddText(400, 1), webhookUrl: fc.constant('https://hooks.example.com/x'), apiKey: oddText(60, 0) }),
            fieldsOf('config', 'webhookUrl', 'apiKey'),
          ),
          withParam(
            '/api/admin/calendar-settings/:id/settings',
            idOrExisting(() => existing.calendarSetting),
          ),
        ),
    },
    {
      method: 'DELETE',
      route: '/api/admin/calendar-settings/:id',
      runs: RUNS.param,
      requests: () => plainRoute('DELETE', '/api/admin/calendar-settings/:id', withParam('/api/admin/calendar-settings/:id', oddId)),
    },
    // Connect (issue 20): the existing integration is Calendly's, which cannot connect (409).
    ...(
      [
        ['POST', '/api/admin/calendar-settings/:id/connect'],
        ['GET', '/api/admin/calendar-settings/:id/calendars'],
        ['POST', '/api/admin/calendar-settings/:id/disconnect'],
      ] as const
    ).map(
      ([method, route]): Endpoint => ({
        method,
        route,
        runs: RUNS.param,
        watch: ['calendarSettings', 'calendarConnections', 'calendarAuthorizations'],
        requests: () =>
          plainRoute(
            method,
            route,
            withParam(
              route,
              idOrExisting(() => existing.calendarSetting),
            ),
          ),
      }),
    ),
    {
      method: 'PUT',
      route: '/api/admin/calendar-settings/:id/calendar',
      runs: RUNS.body,
      watch: ['calendarSettings', 'calendarConnections'],
      requests: () =>
        jsonRoute(
          'PUT',
          '/api/admin/calendar-settings/:id/calendar',
          bodyText(fc.record({ calendarId: oddText(200, 1) }), fieldsOf('calendarId')),
          withParam(
            '/api/admin/calendar-settings/:id/calendar',
            idOrExisting(() => existing.calendarSetting),
          ),
        ),
    },
    { method: 'GET', route: '/api/admin/email-settings', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/email-settings') },
    { method: 'GET', route: '/api/admin/email-outbox', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/email-outbox') },
    { method: 'GET', route: '/api/admin/email-outbox/summary', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/email-outbox/summary') },
    {
      method: 'POST',
      route: '/api/admin/email-settings',
      runs: RUNS.body,
      watch: ['emailSettings'],
      requests: () =>
        jsonRoute(
          'POST',
          '/api/admin/email-settings',
          fc.oneof(
            { weight: 4, arbitrary: bodyText(valid.emailSetting, fieldsOf('provider', 'isActive', 'config')) },
            {
              weight: 1,
              arbitrary: fc
                .constantFrom(`{"a":${arrayBomb(9_000)}}`, objectBomb(3_000), '{"a":"\\u0000"}', '[]')
                .map((config) => JSON.stringify({ provider: 'smtp', config })),
            },
          ),
        ),
    },
    { method: 'DELETE', route: '/api/admin/email-settings', runs: RUNS.none, requests: () => plainRoute('DELETE', '/api/admin/email-settings') },
    {
      method: 'POST',
      route: '/api/admin/email-settings/test',
      runs: RUNS.body,
      watch: ['emailSettings', 'deliveries'],
      requests: () => jsonRoute('POST', '/api/admin/email-settings/test', bodyText(fc.record({ to: fc.emailAddress() }), fieldsOf('to'))),
      // The saved setting (some generated above) names no reachable provider: the send's refusal is the designed answer.
      designed5xx: (status, error) => status === 502 && error.startsWith('The test e-mail was not sent: '),
    },
    {
      method: 'POST',
      route: '/api/admin/email-settings/send-held',
      runs: RUNS.none,
      requests: () => plainRoute('POST', '/api/admin/email-settings/send-held'),
    },
    { method: 'GET', route: '/api/admin/deliveries/attention', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/deliveries/attention') },
    { method: 'GET', route: '/api/admin/cdn/purges', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/cdn/purges') },
    { method: 'GET', route: '/api/admin/calendar-notices', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/calendar-notices') },
    { method: 'GET', route: '/api/admin/blog-sources', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/blog-sources') },
    {
      method: 'POST',
      route: '/api/admin/blog-sources',
      runs: RUNS.body,
      requests: () =>
        jsonRoute(
          'POST',
          '/api/admin/blog-sources',
          fc.oneof(
            { weight: 4, arbitrary: bodyText(valid.blogSource, fieldsOf('name', 'url', 'type', 'displayLimit', 'config', 'isActive')) },
            {
              weight: 1,
              arbitrary: fc
                .constantFrom(`{"a":${arrayBomb(9_000)}}`, objectBomb(3_000))
                .map((config) => JSON.stringify({ name: 'Bomb', url: 'http://127.0.0.1:9/x', config })),
            },
          ),
        ),
    },
    {
      method: 'POST',
      route: '/api/admin/blog-sources/:id/fetch',
      runs: RUNS.param,
      requests: () => plainRoute('POST', '/api/admin/blog-sources/:id/fetch', withParam('/api/admin/blog-sources/:id/fetch', oddId)),
    },
    {
      method: 'DELETE',
      route: '/api/admin/blog-sources/:id',
      runs: RUNS.param,
      requests: () => plainRoute('DELETE', '/api/admin/blog-sources/:id', withParam('/api/admin/blog-sources/:id', oddId)),
    },
    {
      method: 'GET',
      route: '/api/admin/deliveries',
      runs: RUNS.query,
      requests: () =>
        plainRoute('GET', '/api/admin/deliveries', fc.constant('/api/admin/deliveries'), oddQuery(['channel', 'appointmentId', 'integrationId', 'limit'])),
    },
    { method: 'GET', route: '/api/admin/admins', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/admins') },
    {
      method: 'DELETE',
      route: '/api/admin/admins/:username',
      runs: RUNS.param,
      // Odd names, and the group's members (one is removed, the last is refused).
      requests: () =>
        plainRoute('DELETE', '/api/admin/admins/:username', withParam('/api/admin/admins/:username', fc.oneof(oddId, fc.constantFrom(...existing.admins)))),
      watch: ['identityUsers', 'identitySessions'],
    },
    {
      method: 'DELETE',
      route: '/api/admin/admins/:username/mfa',
      runs: RUNS.param,
      // Odd names, and the group's members (their TOTP reset; never the caller's own).
      requests: () =>
        plainRoute(
          'DELETE',
          '/api/admin/admins/:username/mfa',
          withParam('/api/admin/admins/:username/mfa', fc.oneof(oddId, fc.constantFrom(...existing.admins))),
        ),
      watch: ['identityUsers', 'identitySessions'],
    },
    { method: 'GET', route: '/api/admin/admin-requests', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/admin-requests') },
    ...(['approve', 'refuse'] as const).map(
      (decision): Endpoint => ({
        method: 'POST',
        route: `/api/admin/admin-requests/:username/${decision}`,
        runs: RUNS.param,
        requests: () =>
          plainRoute(
            'POST',
            `/api/admin/admin-requests/:username/${decision}`,
            withParam(`/api/admin/admin-requests/:username/${decision}`, fc.oneof(oddId, fc.constantFrom(...existing.admins))),
          ),
        watch: ['identityUsers', 'identitySessions'],
      }),
    ),
    { method: 'GET', route: '/api/admin/admin-invitations', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/admin-invitations') },
    {
      method: 'POST',
      route: '/api/admin/admin-invitations',
      runs: RUNS.query,
      requests: () => jsonRoute('POST', '/api/admin/admin-invitations', bodyText(fc.record({ email: fc.emailAddress() }), fieldsOf('email'))),
      watch: ['identityInvitations', 'identityUsers'],
    },
    {
      method: 'DELETE',
      route: '/api/admin/admin-invitations/:id',
      runs: RUNS.param,
      requests: () =>
        plainRoute(
          'DELETE',
          '/api/admin/admin-invitations/:id',
          withParam(
            '/api/admin/admin-invitations/:id',
            idOrExisting(() => existing.invitationId),
          ),
        ),
      watch: ['identityInvitations'],
    },
    // An invitation's holder: the token in its header (the real one, altered, or anything printable).
    ...(
      [
        ['GET', '/api/identity/invitation'],
        ['POST', '/api/identity/invitation/accept'],
      ] as const
    ).map(
      ([method, route]): Endpoint => ({
        method,
        route,
        runs: RUNS.query,
        watch: ['identityInvitations', 'identityUsers'],
        requests: () =>
          fc
            .record({
              request:
                method === 'POST'
                  ? jsonRoute(
                      'POST',
                      route,
                      bodyText(fc.record({ username: fc.string({ minLength: 3, maxLength: 20 }), password: fc.constant('Harbor-Lantern-Quiet-42') }), [
                        ['username'],
                        ['password'],
                      ]),
                    )
                  : plainRoute(method, route, fc.constant(route), oddQuery(['token'])),
              token: fc.oneof(
                { weight: 3, arbitrary: fc.constant(0).map(() => existing.invitationToken) },
                {
                  weight: 2,
                  arbitrary: fc
                    .constant(0)
                    .map(() => existing.invitationToken)
                    .chain((t) => fc.nat(t.length - 1).map((i) => `${t.slice(0, i)}${t[i] === 'A' ? 'B' : 'A'}${t.slice(i + 1)}`)),
                },
                { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 300 }) },
              ),
            })
            .map(({ request, token }) => ({ ...request, headers: { ...request.headers, 'X-Invitation-Token': token } })),
      }),
    ),
    { method: 'GET', route: '/api/admin/migration/status', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/migration/status') },
    { method: 'GET', route: '/api/admin/migration/run', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/migration/run') },
    {
      method: 'POST',
      route: '/api/admin/migration/create-table',
      runs: RUNS.none,
      designed5xx: migration5xx,
      requests: () => plainRoute('POST', '/api/admin/migration/create-table'),
    },
    {
      method: 'POST',
      route: '/api/admin/migration/migrate',
      runs: RUNS.none,
      designed5xx: migration5xx,
      requests: () => plainRoute('POST', '/api/admin/migration/migrate'),
    },
    {
      method: 'POST',
      route: '/api/admin/migration/verify',
      runs: RUNS.none,
      designed5xx: migration5xx,
      requests: () => plainRoute('POST', '/api/admin/migration/verify'),
    },
    { method: 'POST', route: '/api/admin/publishing/republish', runs: RUNS.none, requests: () => plainRoute('POST', '/api/admin/publishing/republish') },
    // Last: the rules an accepted change sets would refuse the bookings of the routes above; `after` puts them back.
    { method: 'GET', route: '/api/booking-rules', runs: RUNS.none, requests: () => plainRoute('GET', '/api/booking-rules') },
    { method: 'GET', route: '/api/admin/booking-rules', runs: RUNS.none, requests: () => plainRoute('GET', '/api/admin/booking-rules') },
    {
      method: 'PUT',
      route: '/api/admin/booking-rules',
      runs: RUNS.body,
      watch: ['bookingRules', 'bookingHours', 'bookingClosures'],
      requests: () =>
        jsonRoute(
          'PUT',
          '/api/admin/booking-rules',
          fc.oneof(
            {
              weight: 4,
              arbitrary: bodyText(valid.bookingRules as fc.Arbitrary<Body>, [
                ...fieldsOf('hours', 'observeHolidays', 'minimumNoticeHours', 'bookingHorizonDays', 'closures'),
                ['hours', 'monday'],
                ['hours', 'friday'],
                ['hours', 'saturday'],
              ]),
            },
            // Too many closures, and closures nested or shaped wrongly.
            {
              weight: 1,
              arbitrary: fc
                .constantFrom<Json>(
                  Array.from({ length: 201 }, () => ({ from: '2031-01-01', to: '2031-01-01', reason: 'Closed' })),
                  [{ from: '2031-01-01', to: '2031-01-01', reason: { $gt: '' } }],
                  [[{ from: '2031-01-01' }]],
                  [{ from: '2031-01-02', to: '2031-01-01', reason: 'Backwards' }],
                )
                .map((closures) => JSON.stringify({ ...defaultBookingRulesSettings, closures })),
            },
          ),
        ),
      after: async (ctx) => {
        const res = await ctx.admin('PUT', '/api/admin/booking-rules', defaultBookingRulesSettings);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      },
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Sending and judging
// ---------------------------------------------------------------------------------------------

async function send(ctx: TestContext, r: Hostile) {
  const headers: Record<string, string> = { ...r.headers };
  if (r.contentType !== undefined) headers['content-type'] = r.contentType;
  if (r.authorization !== undefined) headers.authorization = r.authorization;
  const res = await ctx.app.request(r.path, { method: r.method, headers, body: r.body });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, type: res.headers.get('content-type') ?? '', text, body: body as { error?: unknown; requestId?: unknown } | undefined };
}

/**
 * Row counts of every table (deliveries included), in one statement (a statement per table made
 * this file the suite's longest), and the rows of the watched ones.
 */
async function snapshot(ctx: TestContext, watch: TableName[] = []) {
  const { db, t, dialect } = ctx.database;
  const tables = Object.entries(t).filter(([, table]) => is(table, Table)) as [TableName, Table][];
  const countAll = sql`select ${sql.join(
    tables.map(([name, table]) => sql`(select count(*) from ${table}) as ${sql.identifier(name)}`),
    sql`, `,
  )}`;
  const row = (
    dialect === 'sqlite'
      ? (db as unknown as { get(query: SQL): Record<string, unknown> }).get(countAll)
      : (await (db as unknown as { execute(query: SQL): Promise<{ rows: Record<string, unknown>[] }> }).execute(countAll)).rows[0]
  )!;
  const counts = tables.map(([name]) => [name, Number(row[name])] as const);
  const rows = await Promise.all(
    watch.map(async (name) => {
      const all = (await db.select().from(t[name] as never)) as { id?: string }[];
      return [name, JSON.stringify(all.sort((a, b) => String(a.id ?? JSON.stringify(a)).localeCompare(String(b.id ?? JSON.stringify(b)))))] as const;
    }),
  );
  return { counts: Object.fromEntries(counts), rows: Object.fromEntries(rows) };
}

const describeRequest = (r: Hostile) =>
  `${r.method} ${r.path.slice(0, 200)} [${r.contentType ?? 'no content-type'}] [${r.authorization?.slice(0, 30) ?? 'no auth'}] body: ${r.body === undefined ? '(none)' : `${r.body.length} chars: ${JSON.stringify(r.body.slice(0, 300))}`}`;

/** What one hostile request must never do: a 5xx, a write, a leak. */
async function expectHandled(ctx: TestContext, ep: Endpoint, r: Hostile) {
  const before = await snapshot(ctx, ep.watch);
  const res = await send(ctx, r);
  const where = `${describeRequest(r)} -> ${res.status} ${res.text.slice(0, 300)}`;
  if (res.status >= 500) {
    expect(ep.designed5xx?.(res.status, String(res.body?.error ?? '')), `a 5xx: ${where}`).toBe(true);
  }
  if (res.status >= 400) {
    expect(res.type, `the error is JSON: ${where}`).toMatch(/^application\/json/);
    expect(typeof res.body?.error === 'string' && res.body.error.length > 0, `an error message: ${where}`).toBe(true);
    expect(typeof res.body?.requestId, `a request id: ${where}`).toBe('string');
    const after = await snapshot(ctx, ep.watch);
    expect(after, `a refused request wrote nothing: ${where}`).toEqual(before);
  }
  return res;
}

const tableNames = (ctx: TestContext) =>
  Object.entries(ctx.database.t)
    .filter(([, table]) => is(table, Table))
    .map(([, table]) => getTableName(table as Table));

forEachDialect(
  'hostile input at every route',
  (ctx) => {
    /** Errors the app logged (unhandled errors, failed background work): none expected. */
    const logged: string[] = [];

    beforeAll(async () => {
      ctx().clock.set(NOW);
      const log = ctx().deps.log;
      const original = log.error;
      log.error = (msg, fields) => {
        logged.push(`${msg} ${JSON.stringify(fields ?? {}).slice(0, 500)}`);
        original(msg, fields);
      };
      const t = await ctx().admin('POST', '/api/admin/testimonials', { clientName: 'Existing', content: 'A real testimonial.', practiceArea: 'other' });
      const r = await ctx().admin('POST', '/api/admin/external-reviews', {
        reviewerName: 'Existing',
        platform: 'google',
        rating: 5,
        content: 'A real review.',
        reviewUrl: 'https://www.google.com/maps/reviews/existing',
      });
      const p = await ctx().admin('POST', '/api/admin/blog-posts', {
        title: 'Existing post',
        excerpt: 'Excerpt',
        content: '<p>Body</p>',
        category: 'probate',
        isPublished: true,
      });
      const a = await ctx().call('POST', '/api/appointments', {
        body: { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com', consultationType: 'initial', practiceArea: 'other', scheduledDate: slotAt(1_100) },
      });
      // Its own booking for the self-service routes, which may cancel or move it.
      const m = await ctx().call('POST', '/api/appointments', {
        body: { firstName: 'Bo', lastName: 'Ng', email: 'bo@example.com', consultationType: 'initial', practiceArea: 'other', scheduledDate: slotAt(1_101) },
      });
      const v = await ctx().admin('POST', '/api/admin/component-visibility', { componentKey: existing.componentKey, componentName: 'Hostile widget' });
      const cal = await ctx().admin('POST', '/api/admin/calendar-settings', {
        provider: 'calendly',
        config: JSON.stringify({ webhook_signing_key: CALENDLY_KEY }),
      });
      for (const res of [t, r, p, a, m, v, cal]) expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${cal.body.id}/activate`)).status).toBe(200);
      existing.testimonial = t.body.id;
      existing.externalReview = r.body.id;
      existing.blogPost = p.body.id;
      existing.appointment = a.body.id;
      existing.manageToken = m.body.manageToken;
      existing.calendarSetting = cal.body.id;
      const theme = await ctx().admin('POST', '/api/admin/themes', {
        name: 'theme-to-edit',
        displayName: 'Theme to edit',
        cssVariables: themeVariables,
      });
      expect(theme.status, JSON.stringify(theme.body)).toBe(201);
      existing.theme = theme.body.id;
      for (const username of existing.admins.slice(0, 2)) {
        await ctx().embeddedAdmins!.create({ username, email: `${username}@firm.example`, password: 'Harbor-Lantern-Quiet-42' });
      }
      const invited = await ctx().admin('POST', '/api/admin/admin-invitations', { email: 'invited.colleague@firm.example' });
      expect(invited.status, JSON.stringify(invited.body)).toBe(201);
      existing.invitationId = invited.body.id;
      existing.invitationToken = new URL(invited.body.link).hash.slice(1);
    });

    afterAll(async () => {
      // Sources made by the properties are refused fetching up front; wait for any fetch anyway
      // before the database goes.
      await backgroundFetchesSettled(ctx().deps);
    });

    it('has a hostile-input entry for every route the app registers', () => {
      const registered = new Set(
        ctx()
          .app.routes.filter((r) => r.method !== 'ALL')
          .map((r) => `${r.method} ${r.path}`),
      );
      const covered = new Set(catalogue().map((ep) => `${ep.method} ${ep.route}`));
      expect([...registered].filter((r) => !covered.has(r)).sort()).toEqual([]);
      expect([...covered].filter((r) => !registered.has(r)).sort()).toEqual([]);
      expect(covered.size).toBeGreaterThanOrEqual(50);
    });

    for (const ep of catalogue()) {
      it(`${ep.method} ${ep.route}: ${ep.runs} hostile requests, never a 5xx, JSON errors, nothing written when refused`, { timeout: 300_000 }, async () => {
        logged.length = 0;
        await fc.assert(
          fc.asyncProperty(ep.requests(), async (r) => {
            await expectHandled(ctx(), ep, r);
          }),
          runs(ep.runs),
        );
        await ep.after?.(ctx());
        expect(logged).toEqual([]);
      });
    }

    it('answers unknown paths and methods under /api with a JSON 404 (or 401 under /api/admin)', { timeout: 120_000 }, async () => {
      const unknown: Endpoint = { method: 'GET', route: '*', runs: RUNS.param, requests: () => fc.constant({ method: 'GET', path: '/' }) };
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
          fc.constantFrom('/api/', '/api/admin/', '/api/blog-posts/x/', '/api/contact/'),
          oddId,
          adminAuth,
          async (method, prefix, id, authorization) => {
            const res = await expectHandled(ctx(), unknown, {
              method,
              path: `${prefix}${id}`,
              authorization,
              body: method === 'GET' ? undefined : '{}',
              contentType: 'application/json',
            });
            expect(res.status).toBeGreaterThanOrEqual(400);
          },
        ),
        runs(RUNS.param),
      );
    });

    // -----------------------------------------------------------------------------------------
    // Valid but odd input is accepted, and stored exactly (trimmed, as the schemas say).
    // -----------------------------------------------------------------------------------------

    const stored = async (table: TableName, id: string) => {
      const { db, t } = ctx().database;
      const tbl = t[table] as unknown as { id: never };
      const [row] = await db
        .select()
        .from(t[table] as never)
        .where(eq(tbl.id, id as never));
      return row as unknown as Record<string, unknown>;
    };
    const ODD_RUNS = 30;

    it('stores unicode names and messages from the contact form exactly', { timeout: 120_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(valid.contact, async (body) => {
          const res = await ctx().call('POST', '/api/contact', { body });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          const row = await stored('contactSubmissions', res.body.id);
          expect([row.firstName, row.lastName, row.message]).toEqual([body.firstName.trim(), body.lastName.trim(), body.message.trim()]);
        }),
        runs(ODD_RUNS),
      );
    });

    it('stores unicode names and notes of a booking exactly', { timeout: 120_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(valid.appointment, async (body) => {
          // A slot of its own (the properties above take 0-399).
          const res = await ctx().call('POST', '/api/appointments', { body: { ...body, scheduledDate: slotAt(400 + (nextSlot++ % 100)) } });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          const row = await stored('appointments', res.body.id);
          expect([row.firstName, row.lastName, row.notes]).toEqual([body.firstName.trim(), body.lastName.trim(), body.notes?.trim() || null]);
        }),
        runs(ODD_RUNS),
      );
    });

    it('stores unicode testimonials, external reviews, blog posts, themes, components, blog sources and calendar configs exactly', {
      timeout: 180_000,
    }, async () => {
      logged.length = 0;
      let n = 0;
      await fc.assert(
        fc.asyncProperty(valid.testimonial, async (body) => {
          const res = await ctx().admin('POST', '/api/admin/testimonials', body);
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          const row = await stored('testimonials', res.body.id);
          expect([row.clientName, row.content]).toEqual([body.clientName.trim(), body.content.trim()]);
        }),
        runs(ODD_RUNS),
      );
      await fc.assert(
        fc.asyncProperty(valid.externalReview, async (body) => {
          const res = await ctx().admin('POST', '/api/admin/external-reviews', body);
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          const row = await stored('externalReviews', res.body.id);
          expect([row.reviewerName, row.content, row.reviewUrl, row.reviewedOn]).toEqual([
            body.reviewerName.trim(),
            body.content.trim(),
            body.reviewUrl,
            body.reviewedOn || null,
          ]);
        }),
        runs(ODD_RUNS),
      );
      await fc.assert(
        fc.asyncProperty(valid.blogPost, async (body) => {
          const res = await ctx().admin('POST', '/api/admin/blog-posts', { ...body, slug: `odd-post-${n++}` });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          const row = await stored('blogPosts', res.body.id);
          expect([row.title, row.excerpt, row.author]).toEqual([body.title.trim(), body.excerpt.trim(), body.author]);
        }),
        runs(ODD_RUNS),
      );
      await fc.assert(
        fc.asyncProperty(valid.theme, async (body) => {
          const res = await ctx().admin('POST', '/api/admin/themes', { ...body, name: `odd-theme-${n++}` });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          const row = await stored('themeSettings', res.body.id);
          expect([row.displayName, row.description]).toEqual([body.displayName.trim(), body.description.trim()]);
        }),
        runs(ODD_RUNS),
      );
      await fc.assert(
        fc.asyncProperty(valid.componentVisibility, async (body) => {
          const res = await ctx().admin('POST', '/api/admin/component-visibility', { ...body, componentKey: `odd_component_${n++}` });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          const row = await stored('componentVisibilitySettings', res.body.id);
          expect([row.componentName, row.description]).toEqual([body.componentName.trim(), body.description.trim()]);
        }),
        runs(ODD_RUNS),
      );
      await fc.assert(
        fc.asyncProperty(valid.blogSource, async (body) => {
          const res = await ctx().admin('POST', '/api/admin/blog-sources', body);
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          expect((await stored('blogSources', res.body.id)).name).toBe(body.name.trim());
        }),
        runs(ODD_RUNS),
      );
      await fc.assert(
        fc.asyncProperty(valid.calendarSetting, async (body) => {
          const res = await ctx().admin('POST', '/api/admin/calendar-settings', body);
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          // Sealed (docs/decisions/015), and opened to exactly what was sent.
          const config = (await stored('calendarSettings', res.body.id)).config as string;
          expect(openConfig(ctx().deps.secrets, config, { table: 'calendar-settings', id: res.body.id })).toBe(body.config.trim());
        }),
        runs(ODD_RUNS),
      );
      expect(logged).toEqual([]);
    });

    // -----------------------------------------------------------------------------------------
    // Regressions: one plain example of each defect the properties found.
    // -----------------------------------------------------------------------------------------

    const contact = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com', practiceArea: 'other', message: 'Hello' };

    it('refuses a NUL character in text with a field error, writing nothing (PostgreSQL answered 500)', async () => {
      for (const [path, body, field] of [
        ['/api/contact', { ...contact, message: 'before\u0000after' }, 'message'],
        ['/api/contact', { ...contact, firstName: '\u0000' }, 'firstName'],
        [
          '/api/appointments',
          { firstName: 'A\u0000', lastName: 'B', email: 'a@example.com', consultationType: 'initial', practiceArea: 'other', scheduledDate: slotAt(1_101) },
          'firstName',
        ],
      ] as const) {
        const before = await snapshot(ctx());
        const res = await ctx().call('POST', path, { body });
        expect(res.status, path).toBe(400);
        expect(res.body.fields).toEqual({ [field]: 'Text may not contain NUL characters or unpaired Unicode surrogates' });
        expect(await snapshot(ctx())).toEqual(before);
      }
      for (const [path, body, field] of [
        ['/api/admin/blog-posts', { title: 'T\u0000', excerpt: 'e', content: '<p>c</p>', category: 'probate' }, 'title'],
        ['/api/admin/blog-sources', { name: 'News\u0000', url: 'http://127.0.0.1:9/feed.xml' }, 'name'],
        ['/api/admin/calendar-settings', { provider: 'google', config: 'a\u0000b' }, 'config'],
      ] as const) {
        const before = await snapshot(ctx());
        const res = await ctx().admin('POST', path, body);
        expect(res.status, path).toBe(400);
        expect(res.body.fields).toEqual({ [field]: 'Text may not contain NUL characters or unpaired Unicode surrogates' });
        expect(await snapshot(ctx())).toEqual(before);
      }
    });

    it('refuses a lone surrogate instead of storing U+FFFD in its place', async () => {
      const before = await snapshot(ctx());
      const res = await ctx().call('POST', '/api/contact', { rawBody: JSON.stringify(contact).replace('"Hello"', '"Hel\\ud800lo"') });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual({ message: 'Text may not contain NUL characters or unpaired Unicode surrogates' });
      expect(await snapshot(ctx())).toEqual(before);
      // A key of the body counts too.
      expect((await ctx().call('POST', '/api/contact', { rawBody: JSON.stringify(contact).replace('{', '{"\\udfff":1,') })).status).toBe(400);
    });

    it('answers a NUL in a path or query as an unknown record or a field error (PostgreSQL answered 500)', async () => {
      expect((await ctx().call('GET', '/api/blog-posts/%00')).body.error).toBe('Article Not Found');
      expect((await ctx().call('GET', '/api/blog-posts/a%00b')).status).toBe(404);
      expect((await ctx().admin('PUT', '/api/admin/contact-submissions/%00/read')).status).toBe(404);
      expect((await ctx().admin('DELETE', '/api/admin/testimonials/%00')).status).toBe(404);
      const res = await ctx().admin('GET', '/api/admin/deliveries?appointmentId=%00');
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual({ appointmentId: 'Text may not contain NUL characters or unpaired Unicode surrogates' });
    });

    it('answers a JSON bomb (10,000 levels) with a 400, on any route', async () => {
      for (const raw of [arrayBomb(10_000), objectBomb(10_000), `{"message":${arrayBomb(10_000)}}`]) {
        const res = await ctx().call('POST', '/api/contact', { rawBody: raw });
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('Malformed request body: nested too deeply.');
      }
    });

    it('keeps configs nested thousands deep from breaking the integration lists (a stack overflow answered 500, every time)', async () => {
      const deep = `{"a":${arrayBomb(9_000)}}`;
      // JSON-checked configs refuse it.
      for (const [path, body] of [
        ['/api/admin/email-settings', { provider: 'smtp', config: deep }],
        ['/api/admin/blog-sources', { name: 'Deep', url: 'http://127.0.0.1:9/deep.xml', config: deep }],
      ] as const) {
        const before = await snapshot(ctx());
        const res = await ctx().admin('POST', path, body);
        expect(res.status, path).toBe(400);
        expect(res.body.fields).toEqual({ config: 'Configuration is nested too deeply' });
        expect(await snapshot(ctx())).toEqual(before);
      }
      // A calendar config is free text (SPEC §5): stored, and withheld whole when listed.
      const res = await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'outlook', config: deep });
      expect(res.status).toBe(201);
      expect(res.body.config).toBe('••••');
      const list = await ctx().admin('GET', '/api/admin/calendar-settings');
      expect(list.status).toBe(200);
      expect(list.body.find((s: { id: string }) => s.id === res.body.id).config).toBe('••••');
    });

    it('refuses publish dates PostgreSQL cannot hold or reads back wrongly (year 0 and 10000 answered 500)', async () => {
      for (const publishedAt of [
        '0000-01-01T00:00:00Z',
        '0099-06-01T00:00:00Z',
        '+010000-01-01T00:00:00Z',
        '-271821-04-20T00:00:00.000Z',
        '1899-12-31T23:59:59Z',
      ]) {
        const before = await snapshot(ctx());
        const res = await ctx().admin('POST', '/api/admin/blog-posts', {
          title: `Dated ${publishedAt}`,
          excerpt: 'e',
          content: '<p>c</p>',
          category: 'probate',
          isPublished: true,
          publishedAt,
        });
        expect(res.status, publishedAt).toBe(400);
        expect(res.body.fields).toEqual({ publishedAt: 'Publish date must be between the years 1900 and 9999' });
        expect(await snapshot(ctx())).toEqual(before);
      }
    });

    it('refuses signed Calendly webhooks with unstorable names, impossible years or events longer than a day', async () => {
      const t = Math.floor(Date.parse(NOW) / 1000);
      const signed = (payload: Json) => {
        const raw = JSON.stringify({ event: 'invitee.created', payload });
        return {
          rawBody: raw,
          headers: { 'Calendly-Webhook-Signature': `t=${t},v1=${createHmac('sha256', CALENDLY_KEY).update(`${t}.${raw}`).digest('hex')}` },
        };
      };
      const invitee = (overrides: Record<string, Json>, event: Record<string, Json> = {}) => ({
        uri: `https://api.calendly.com/invitees/${crypto.randomUUID()}`,
        email: 'invitee@example.com',
        name: 'Calendly Invitee',
        scheduled_event: { name: 'Consultation', start_time: '2030-09-02T16:00:00.000Z', end_time: '2030-09-02T16:30:00.000Z', ...event },
        ...overrides,
      });
      for (const payload of [
        invitee({ name: 'Nul\u0000Name' }),
        invitee({}, { start_time: '0000-01-01T00:00:00Z', end_time: '0000-01-01T00:30:00Z' }),
        invitee({}, { start_time: '2030-09-02T16:00:00.000Z', end_time: '2099-01-01T00:00:00.000Z' }),
      ]) {
        const before = await snapshot(ctx());
        const res = await ctx().call('POST', '/api/integrations/calendly/webhook', signed(payload));
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(await snapshot(ctx())).toEqual(before);
      }
      // The same webhook, well formed, is recorded.
      expect((await ctx().call('POST', '/api/integrations/calendly/webhook', signed(invitee({})))).status).toBe(201);
    });

    // -----------------------------------------------------------------------------------------
    // /theme.css: what the API stores can never break out of the site's stylesheet.
    // -----------------------------------------------------------------------------------------

    /** /theme.css as api/site/site.ts builds it: the active theme, from the API. */
    async function themeCss() {
      const theme = await ctx().call('GET', '/api/themes/active');
      return themeStylesheet(theme.body.cssVariables);
    }
    /** Only `:root{…}`, `:root.dark{…}`, `:root.warm{…}` of known keys with plain values (tests/support/theme-css.ts). */
    const confined = confinedThemeCss;

    it('refuses hostile theme variables, stores hostile theme names inertly, and /theme.css stays confined', async () => {
      const base = { name: 'hostile-theme', displayName: 'x', cssVariables: themeVariables };
      const hostileVars = [
        '{"background":"0 0% 100%; } body { background: url(javascript:alert(1)) } :root {","foreground":"0 0% 0%","primary":"0 0% 0%","primary-foreground":"0 0% 100%"}',
        '{"background":"</style><script>window.__pwned(1)</script>","foreground":"0 0% 0%","primary":"0 0% 0%","primary-foreground":"0 0% 100%"}',
        '{"background":"0 0% 100%","foreground":"0 0% 0%","primary":"0 0% 0%","primary-foreground":"0 0% 100%","x;}*{display:none":"1"}',
        '{"background":"0 0% 100%","foreground":"0 0% 0%","primary":"0 0% 0%","primary-foreground":"0 0% 100%","radius":"0.5rem;}body{display:none"}',
        // The variants are held to the same rules (decision 031).
        '{"background":"0 0% 100%","foreground":"0 0% 0%","primary":"0 0% 0%","primary-foreground":"0 0% 100%","dark":{"background":"0 0% 0%;}body{display:none","foreground":"0 0% 100%","primary":"0 0% 100%","primary-foreground":"0 0% 0%"}}',
        '{"background":"0 0% 100%","foreground":"0 0% 0%","primary":"0 0% 0%","primary-foreground":"0 0% 100%","warm":{"background":"40 40% 95%","foreground":"0 0% 0%","primary":"0 0% 0%","primary-foreground":"0 0% 100%","x}*{":"1"}}',
        '{"background":"0 0% 100%","foreground":"0 0% 0%","primary":"0 0% 0%","primary-foreground":"0 0% 100%","dark":"</style><script>window.__pwned(1)</script>"}',
        '{"background":"0 0% 100%","foreground":"0 0% 0%","primary":"0 0% 0%","primary-foreground":"0 0% 100%","dark}:root{":{"background":"0 0% 0%"}}',
        'not json',
        arrayBomb(4_000),
      ];
      for (const cssVariables of hostileVars) {
        const before = await snapshot(ctx());
        const res = await ctx().admin('POST', '/api/admin/themes', { ...base, cssVariables, isActive: true });
        expect(res.status, cssVariables.slice(0, 80)).toBe(400);
        expect(Object.keys(res.body.fields)).toEqual(['cssVariables']);
        expect(await snapshot(ctx())).toEqual(before);
      }
      // Script in the names is text: stored as sent, never part of the stylesheet.
      const displayName = '</style><script>window.__pwned(1)</script>';
      const description = '"; } body { background: url(javascript:alert(1)) } /*';
      const res = await ctx().admin('POST', '/api/admin/themes', { ...base, displayName, description, isActive: true });
      expect(res.status).toBe(201);
      expect([res.body.displayName, res.body.description, res.body.isActive]).toEqual([displayName, description, true]);
      const css = await themeCss();
      expect(css).toMatch(confined);
      expect(css).not.toMatch(/script|javascript|url\(|body/);

      // A theme written around the API (a restored backup, a hand edit) is confined too.
      const { db, t } = ctx().database;
      const [row] = await db
        .insert(t.themeSettings)
        .values({
          name: 'restored-hostile',
          displayName,
          description,
          cssVariables: JSON.stringify({
            background: '0 0% 100%;}</style><script>window.__pwned(1)</script>',
            foreground: 'red;}body{background:url(javascript:alert(1))}',
            primary: '222 47% 11%',
            'primary-foreground': 'expression(alert(1))',
            '}*{display:none;': '1',
            radius: '0.5rem\n}\nbody{display:none}',
            dark: { background: '0 0% 0%}body{display:none', 'x}{': '1', ring: '0 0% 50%' },
            warm: '</style><script>window.__pwned(1)</script>',
            'dark}body{': { primary: '0 0% 0%' },
          }),
        })
        .returning();
      expect((await ctx().admin('PUT', `/api/admin/themes/${row!.id}/activate`)).status).toBe(200);
      // Of the stored variables only the one plain value is kept.
      const restored = await themeCss();
      expect(restored).toMatch(confined);
      expect(restored).toBe(':root{--site-theme-variants:light dark;--primary:222 47% 11%}\n:root.dark{--ring:0 0% 50%}\n');
      expect(restored).not.toMatch(/script|javascript|url\(|body|expression|\*/);
    });

    it('compares every table of the schema, the deliveries outbox among them', () => {
      expect(tableNames(ctx())).toEqual(
        expect.arrayContaining(['deliveries', 'contact_submissions', 'appointments', 'appointment_slot_claims', 'theme_settings']),
      );
    });
  },
  // Loopback feed URLs are refused up front: a blog source made by a property is never fetched.
  { integrations: { allowPrivateNetworks: false }, embeddedAdmins: true },
);
