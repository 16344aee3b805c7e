/**
 * Secrets in integration configs (API keys, passwords, tokens) are stored sealed and used, but never
 * returned in full by any GET (ARCHITECTURE Data). Masking keeps the last 4 characters of a long
 * secret so an admin can tell which key is configured; a short one is masked entirely.
 */
import { jsonDepth, MAX_JSON_DEPTH } from '../../src/shared/schemas/fields.ts';

const secretKey = /(secret|token|pass|pwd|api[_-]?key|signing|private|credential|authori[sz]ation|cookie|session|key$)/i;

export const MASK = '••••';
/** Below this length a secret shows no characters at all: the tail must never be a large part of it. */
const MIN_LENGTH_FOR_TAIL = 12;

/** Secret-looking names of URL parameters and request headers (configs are masked by template instead). */
export function isSecretKey(key: string): boolean {
  return secretKey.test(key);
}

export function maskSecret(value: string | null | undefined): string | null {
  if (!value) return null;
  return value.length < MIN_LENGTH_FOR_TAIL ? MASK : `${MASK}${value.slice(-4)}`;
}

/**
 * A URL with its secrets masked: the password of the user info (or the whole user info when it is a
 * bare token, as in https://TOKEN@host), and the values of secret-looking query or fragment
 * parameters (?token=..., #access_token=...). The rest stays readable. Text that is not an absolute
 * URL comes back as it is.
 */
export function maskUrl(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*@)?(.*)$/is.exec(value);
  if (!m) return value;
  const [, scheme = '', userinfo, rest = ''] = m;
  let auth = '';
  if (userinfo) {
    const colon = userinfo.indexOf(':');
    auth = colon >= 0 ? `${userinfo.slice(0, colon)}:${MASK}@` : `${MASK}@`;
  }
  const masked = rest.replace(/([?&;#])([^=&;#]*)=([^&;#]*)/g, (whole, sep: string, name: string, v: string) => {
    let key = name;
    let decoded = v;
    try {
      key = decodeURIComponent(name.replace(/\+/g, ' '));
      decoded = decodeURIComponent(v.replace(/\+/g, ' '));
    } catch {
      /* malformed escapes: judge the raw text */
    }
    return isSecretKey(key) ? `${sep}${name}=${maskSecret(decoded) ?? ''}` : whole;
  });
  return `${scheme}${auth}${masked}`;
}

/** Free text (an error message, a note) with every URL in it passed through maskUrl. */
export function maskUrlsInText(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (url) => maskUrl(url)!);
}

/**
 * Deny by default (docs/decisions/015; masking by secret-looking key names let a key named `auth`
 * through in full): a config value is shown only where its kind's template names the field public;
 * everything else, unknown and nested fields included, is masked. A path is the keys from the top
 * joined by dots; `*` stands for any one key. The same lists decide what is sealed at rest
 * (api/crypto/sealed-config.ts).
 */
export const publicConfigFields = {
  'calendar:google': ['client_id', 'calendar_id', 'redirect_uri'],
  'calendar:outlook': ['client_id', 'tenant_id', 'user_email'],
  'calendar:calendly': ['username'],
  'calendar:custom': [],
  'email:smtp': ['host', 'port', 'secure', 'auth.user', 'from_email', 'from_name'],
  'email:sendgrid': ['from_email', 'from_name'],
  // api/blog-sources/feed-parsers.ts: how to read a feed is public; headers and keys are not.
  'blog-source': ['apiKeyHeader', 'itemsPath', 'fields.*', 'selectors.*'],
} as const satisfies Record<string, readonly string[]>;

export type ConfigKind = keyof typeof publicConfigFields;

/** The kind of a calendar or email setting's config; a provider without a template has no public field. */
export function configKind(area: 'calendar' | 'email', provider: string): ConfigKind | null {
  const kind = `${area}:${provider}`;
  return kind in publicConfigFields ? (kind as ConfigKind) : null;
}

/** Whether the value at `path` may be shown (and kept unsealed): only a scalar at a field the template names. */
export function isPublicField(kind: ConfigKind | null, path: readonly (string | number)[]): boolean {
  if (!kind || path.some((key) => typeof key !== 'string')) return false;
  return publicConfigFields[kind].some((pattern: string) => {
    const parts = pattern.split('.');
    return parts.length === path.length && parts.every((part, i) => part === '*' || part === path[i]);
  });
}

/** A value of a field not named public: text keeps its last 4 characters when long, anything else is withheld. */
function maskLeaf(value: unknown): unknown {
  if (value === null || value === '') return value;
  return typeof value === 'string' ? maskSecret(value) : MASK;
}

/** Walks a parsed config: objects and lists keep their shape, each scalar is shown or masked by its path. */
function maskValue(kind: ConfigKind | null, value: unknown, path: (string | number)[]): unknown {
  if (Array.isArray(value)) return value.map((v, i) => maskValue(kind, v, [...path, i]));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, maskValue(kind, v, [...path, k])]));
  }
  if (!isPublicField(kind, path)) return maskLeaf(value);
  // A public field may still be a URL carrying a token.
  return typeof value === 'string' && value.includes('://') ? maskUrlsInText(value) : value;
}

/**
 * A config held as JSON text (opened: api/crypto/sealed-config.ts), masked for a GET: only the
 * public fields of `kind` show; text that is not a JSON object or list is withheld.
 */
export function maskConfig(config: string | null, kind: ConfigKind | null): string | null {
  if (config === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(config);
  } catch {
    return MASK;
  }
  if (parsed === null || typeof parsed !== 'object') return MASK;
  // MaskValue recurses; a config nested thousands deep (a calendar config is free text) would
  // exhaust the stack and break every list that shows it. No real config is that deep: withheld whole.
  if (jsonDepth(parsed) > MAX_JSON_DEPTH) return MASK;
  return JSON.stringify(maskValue(kind, parsed, []));
}
