/**
 * Integration secrets at rest (docs/decisions/015). Every config value its template does not name
 * public (publicConfigFields in secret-masking.ts), and the custom webhook's API key, is sealed with
 * deps.secrets before it is written, and opened only where it is used: sending mail, calling a
 * calendar provider, fetching a feed, checking a Calendly signature (and, for the last 4 characters
 * a GET shows, masking). A sealed value's context names its table, row and field, so a value copied
 * into another row or field does not open. Rows written before sealing hold plain values: those are
 * used as they are, and sealed by `npm run secrets:rotate` (no update path rewrites a config).
 *
 * In a JSON config each secret scalar is sealed on its own, as its JSON text (a number stays a number
 * when opened), in place: the rest of the text is kept as it came. Text that is not a JSON object or
 * list (a calendar config is free text, SPEC §5), or nests deeper than any real config, is sealed
 * whole. null and '' stay as they are: there is nothing to hide, and the screens show them blank.
 */
import { jsonDepth, MAX_JSON_DEPTH } from '../../src/shared/schemas/fields.ts';
import { isSealed, type SecretBox } from './secret-box.ts';
import { isPublicField, MASK, type ConfigKind } from './secret-masking.ts';

export type SecretTable = 'calendar-settings' | 'email-settings' | 'blog-sources';

/** The row a secret belongs to; its id must be known before the insert (routes generate it). */
export interface SecretOwner {
  table: SecretTable;
  id: string;
}

type Path = (string | number)[];

const contextOf = (owner: SecretOwner, field: string) => `${owner.table}:${owner.id}:${field}`;
/** JSON of the path: unambiguous even for keys that hold dots. */
const leafField = (path: Path) => `config${JSON.stringify(path)}`;
const pathText = (path: Path) => path.join('.');

/** A sealed value that does not open: fail closed, saying what to do. `what`: 'secret "auth.pass"', 'sealed text'. */
export class UnreadableSecretError extends Error {
  constructor(what: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `its ${what} cannot be opened (${reason}): it was changed in the database or copied from another record, ` +
        'or sealed with a key this server does not have (set SECRETS_KEY_PREVIOUS to that key); saving the configuration again replaces it',
    );
    this.name = 'UnreadableSecretError';
  }
}

/** Whether a config is sealed leaf by leaf: a JSON object or list no deeper than any real config (else whole). */
function isTree(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  return parsed !== null && typeof parsed === 'object' && jsonDepth(parsed) <= MAX_JSON_DEPTH;
}

const JSON_SPACE = ' \t\n\r';
const nothingToHide = (value: unknown) => value === null || value === '';

/**
 * Valid JSON text (isTree) with each scalar token replaced by what `leaf` makes of its raw text and
 * path; everything else stays byte for byte. Sealing the raw token (not the parsed value) gives back
 * exactly what the admin saved: spacing, escapes, key order, and numbers beyond double precision.
 */
function mapTokens(text: string, leaf: (raw: string, path: Path) => string): string {
  let i = 0;
  const space = () => {
    const start = i;
    while (i < text.length && JSON_SPACE.includes(text[i]!)) i++;
    return text.slice(start, i);
  };
  const token = () => {
    const start = i;
    if (text[i] === '"') {
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
      i++;
    } else while (i < text.length && !`${JSON_SPACE},]}`.includes(text[i]!)) i++;
    return text.slice(start, i);
  };
  // Recursion is bounded by MAX_JSON_DEPTH (isTree).
  const value = (path: Path): string => {
    const bracket = text[i];
    if (bracket !== '{' && bracket !== '[') return leaf(token(), path);
    const close = bracket === '{' ? '}' : ']';
    let out = bracket;
    i++;
    out += space();
    for (let n = 0; text[i] !== close; n++) {
      let key: string | number = n;
      if (bracket === '{') {
        const raw = token();
        key = JSON.parse(raw) as string;
        out += raw + space() + ':';
        i++;
        out += space();
      }
      out += value([...path, key]) + space();
      if (text[i] === ',') {
        out += ',';
        i++;
        out += space();
      }
    }
    i++;
    return out + close;
  };
  const lead = space();
  return lead + value([]) + text.slice(i);
}

/** The config text to store, its secrets sealed. Text without a secret is stored as it came. */
export function sealConfig(box: SecretBox, config: string, kind: ConfigKind | null, owner: SecretOwner): string;
export function sealConfig(box: SecretBox, config: string | null, kind: ConfigKind | null, owner: SecretOwner): string | null;
export function sealConfig(box: SecretBox, config: string | null, kind: ConfigKind | null, owner: SecretOwner): string | null {
  if (config === null) return null;
  if (!isTree(config)) return box.seal(config, contextOf(owner, 'config'));
  return mapTokens(config, (raw, path) => {
    if (nothingToHide(JSON.parse(raw)) || isPublicField(kind, path)) return raw;
    return JSON.stringify(box.seal(raw, contextOf(owner, leafField(path))));
  });
}

/** The sealed value a token holds, or null. */
const sealedIn = (raw: string): string | null => {
  if (!raw.startsWith('"sealed:')) return null;
  const value: unknown = JSON.parse(raw);
  return isSealed(value) ? value : null;
};

/**
 * The stored config with its sealed values opened, for the code that uses it. Plain values (rows
 * from before sealing) come back as they are. Throws UnreadableSecretError when a sealed value does
 * not open; `lenient` (for masking) puts MASK in its place instead.
 */
export function openConfig(box: SecretBox, stored: string | null, owner: SecretOwner, { lenient = false } = {}): string | null {
  if (stored === null) return null;
  const open = (sealed: string, field: string, label: string) => {
    try {
      return box.open(sealed, contextOf(owner, field));
    } catch (err) {
      if (lenient) return null;
      throw new UnreadableSecretError(label, err);
    }
  };
  if (isSealed(stored)) return open(stored, 'config', 'sealed text') ?? MASK;
  if (!isTree(stored)) return stored;
  return mapTokens(stored, (raw, path) => {
    const sealed = sealedIn(raw);
    if (!sealed) return raw;
    return open(sealed, leafField(path), `secret "${pathText(path)}"`) ?? JSON.stringify(MASK);
  });
}

/** One secret column (the custom webhook's API key): sealed unless empty. */
export function sealField(box: SecretBox, value: string | null, owner: SecretOwner, field: string): string | null {
  return value ? box.seal(value, contextOf(owner, field)) : value;
}

/** One secret column opened (a plain value as it is); `lenient` gives MASK for one that does not open. */
export function openField(box: SecretBox, stored: string | null, owner: SecretOwner, field: string, { lenient = false } = {}): string | null {
  if (!isSealed(stored)) return stored;
  try {
    return box.open(stored, contextOf(owner, field));
  } catch (err) {
    if (lenient) return MASK;
    throw new UnreadableSecretError(`secret ${field}`, err);
  }
}

/** True when every secret of the stored config is sealed with the current key (and nothing public is sealed). */
export function configIsCurrent(box: SecretBox, stored: string | null, kind: ConfigKind | null): boolean {
  if (stored === null) return true;
  if (isSealed(stored)) return box.isCurrent(stored);
  if (!isTree(stored)) return false;
  let current = true;
  mapTokens(stored, (raw, path) => {
    const sealed = sealedIn(raw);
    if (sealed) current &&= box.isCurrent(sealed) && !isPublicField(kind, path);
    else current &&= nothingToHide(JSON.parse(raw)) || isPublicField(kind, path);
    return raw;
  });
  return current;
}

export const fieldIsCurrent = (box: SecretBox, stored: string | null) => !stored || box.isCurrent(stored);

/**
 * Why a value an admin sends cannot be stored as a secret, or null: a masked value from a GET (it
 * would replace the secret with its own mask), or a sealed one (it would be opened as if it were ours).
 */
export function writeBackProblem(value: string | null | undefined): string | null {
  if (!value) return null;
  if (value.includes(MASK)) return `holds a masked value (${MASK}): paste the secret itself; what a GET shows is never saved in its place`;
  if (/sealed:v1\./.test(value)) return 'holds a sealed value: paste the secret itself';
  return null;
}

/** A 400's field messages for the values (field: [label, value]) writeBackProblem refuses; null when none. */
export function writeBackErrors(values: Record<string, [label: string, value: string | null | undefined]>): Record<string, string> | null {
  const fields: Record<string, string> = {};
  for (const [field, [label, value]] of Object.entries(values)) {
    const problem = writeBackProblem(value);
    if (problem) fields[field] = `${label} ${problem}`;
  }
  return Object.keys(fields).length ? fields : null;
}
