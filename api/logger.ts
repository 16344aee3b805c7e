/**
 * Structured JSON logs, one line each. Never pass personal data (names, e-mails, messages) or
 * secrets: log ids and counts.
 *
 * What slips through anyway is scrubbed here: an error's text can carry what a
 * visitor sent (Drizzle's "Failed query: … params: <the values>", a mail server's "550 <someone@…>
 * rejected"), so every string a line holds loses its query parameters, e-mail addresses, bearer
 * tokens and JWTs before it is written.
 */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export type LogLevel = 'info' | 'warn' | 'error';

export interface LoggerOptions {
  /** Only errors are written (LOG_QUIET). */
  silent?: boolean;
  /** Where a finished line goes; default stdout (info, warn) and stderr (error). Tests capture it. */
  write?: (line: string, level: LogLevel) => void;
}

const scrubbers: [RegExp, string][] = [
  // Drizzle's error message lists the statement's values after "params:" (up to the end of that line).
  [/(^|\n)(\s*params: )[^\n]*/g, '$1$2[redacted]'],
  [/\bBearer\s+[^\s"',;]+/gi, 'Bearer [redacted]'],
  [/\beyJ[\w-]*\.[\w-]+\.[\w-]*/g, '[token]'],
  [/[\w.!#$%&'*+/=?^`{|}~-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi, '[email]'],
];

/** What every scrubber needs to find something: text without any of it (most of it) is left as it is at once. */
const SUSPECT = /@|bearer|eyJ|params: /i;

const scrubText = (text: string) => (SUSPECT.test(text) ? scrubbers.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text) : text);

/** Strings scrubbed, errors reduced to their (scrubbed) name and message, nested values too. */
export function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value instanceof Error) return scrubText(`${value.name}: ${value.message}`);
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  if (value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, depth + 1)]));
}

/**
 * Standard output is written synchronously when it is a pipe or a file, one system call a line; a
 * request line each would cost the pages a fifth of their throughput. Info and warn lines are kept
 * and written together once per turn of the event loop (or at 64 KB), errors at once after them, and
 * whatever is kept is written when the process exits.
 */
let pending: string[] = [];
let pendingBytes = 0;
let flushScheduled = false;
function flush() {
  flushScheduled = false;
  if (!pending.length) return;
  const text = pending.join('');
  pending = [];
  pendingBytes = 0;
  process.stdout.write(text);
}
process.once('exit', flush);

const defaultWrite = (line: string, level: LogLevel) => {
  if (level === 'error') {
    flush();
    process.stderr.write(`${line}\n`);
    return;
  }
  pending.push(`${line}\n`);
  pendingBytes += line.length + 1;
  if (pendingBytes >= 64 * 1024) flush();
  else if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(flush);
  }
};

export function createLogger(options: LoggerOptions = {}): Logger {
  const out = options.write ?? defaultWrite;
  const write = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (options.silent && level !== 'error') return;
    out(JSON.stringify({ time: new Date().toISOString(), level, msg: scrubText(msg), ...(fields ? (scrub(fields) as Record<string, unknown>) : {}) }), level);
  };
  return {
    info: (msg, fields) => write('info', msg, fields),
    warn: (msg, fields) => write('warn', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
  };
}
