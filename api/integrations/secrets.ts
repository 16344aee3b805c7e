/**
 * Secrets in integration configs (API keys, passwords, tokens) are stored and used, but never
 * returned in full by any GET (ARCHITECTURE Data). Masking keeps the last 4 characters of a long
 * secret so an admin can tell which key is configured; a short one is masked entirely.
 */
import { jsonDepth, MAX_JSON_DEPTH } from '../../src/shared/schemas/fields.ts';

const secretKey = /(secret|token|pass|pwd|api[_-]?key|signing|private|credential|authori[sz]ation|cookie|session|key$)/i;

export const MASK = '••••';
/** Below this length a secret shows no characters at all: the tail must never be a large part of it. */
const MIN_LENGTH_FOR_TAIL = 12;

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
 * Masks one value found under `key`. Everything below a secret-looking key is secret (a list of
 * tokens, a credentials object), and numbers are masked there too (a numeric PIN is still a secret).
 */
function maskValue(key: string, value: unknown, underSecret: boolean): unknown {
  const secret = underSecret || isSecretKey(key);
  if (Array.isArray(value)) return value.map((v) => maskValue(key, v, secret));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, maskValue(k, v, secret)]));
  }
  if (typeof value === 'string') {
    if (secret) return value === '' ? '' : maskSecret(value);
    return value.includes('://') ? maskUrlsInText(value) : value;
  }
  if (secret && (typeof value === 'number' || typeof value === 'bigint')) return MASK;
  return value;
}

/** A config held as JSON text, with secret-looking values masked; text that is not a JSON object or list is withheld. */
export function maskConfig(config: string | null): string | null {
  if (config === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(config);
  } catch {
    return MASK;
  }
  if (parsed === null || typeof parsed !== 'object') return MASK;
  // Issue 9: maskValue recurses; a config nested thousands deep (a calendar config is free text) would
  // exhaust the stack and break every list that shows it. No real config is that deep: withheld whole.
  if (jsonDepth(parsed) > MAX_JSON_DEPTH) return MASK;
  return JSON.stringify(maskValue('', parsed, false));
}
