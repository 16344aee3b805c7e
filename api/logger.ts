/**
 * Structured JSON logs, one line each. Never pass personal data (names, e-mails, messages) or
 * secrets: log ids and counts.
 */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(options: { silent?: boolean } = {}): Logger {
  const write = (level: string, msg: string, fields?: Record<string, unknown>) => {
    if (options.silent && level !== 'error') return;
    const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
    if (level === 'error') process.stderr.write(line + '\n');
    else process.stdout.write(line + '\n');
  };
  return {
    info: (msg, fields) => write('info', msg, fields),
    warn: (msg, fields) => write('warn', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
  };
}
