/**
 * Secrets in integration configs (API keys, passwords, tokens) are stored and used, but never
 * returned in full by any GET (ARCHITECTURE Data). Masking keeps the last 4 characters so an admin
 * can tell which key is configured.
 */
const secretKey = /(secret|token|password|pass|api_?key|apikey|signing|private|credential)/i;

export function maskSecret(value: string | null | undefined): string | null {
  if (!value) return null;
  return value.length <= 8 ? '••••' : `••••${value.slice(-4)}`;
}

function maskValue(key: string, value: unknown): unknown {
  if (value && typeof value === 'object') return maskObject(value as Record<string, unknown>);
  if (typeof value === 'string' && secretKey.test(key)) return maskSecret(value);
  return value;
}

function maskObject(obj: Record<string, unknown> | unknown[]): unknown {
  if (Array.isArray(obj)) return obj.map((v) => maskValue('', v));
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, maskValue(k, v)]));
}

/** A config held as JSON text, with secret-looking values masked; text that is not JSON is withheld. */
export function maskConfig(config: string | null): string | null {
  if (config === null) return null;
  try {
    const parsed: unknown = JSON.parse(config);
    if (parsed && typeof parsed === 'object') return JSON.stringify(maskObject(parsed as Record<string, unknown>));
    return '••••';
  } catch {
    return '••••';
  }
}
