import { describe, expect, it, vi } from 'vitest';
import { createLogger, scrub } from './logger.ts';

describe('the logger keeps personal data and secrets out', () => {
  it("redacts Drizzle's statement values, e-mail addresses, bearer tokens and JWTs, however deep", () => {
    const err = `Error: Failed query: insert into "contact_submissions" ("first_name", "email") values ($1, $2)\nparams: Maria,maria@example.com\n    at x (file.ts:1:1)`;
    expect(scrub(err)).toBe(
      `Error: Failed query: insert into "contact_submissions" ("first_name", "email") values ($1, $2)\nparams: [redacted]\n    at x (file.ts:1:1)`,
    );
    expect(scrub({ detail: ['550 5.1.1 <bob.smith+law@mail.example.co.uk>: Recipient rejected'] })).toEqual({
      detail: ['550 5.1.1 <[email]>: Recipient rejected'],
    });
    expect(scrub('authorization: Bearer abc.def-123')).toBe('authorization: Bearer [redacted]');
    expect(scrub('token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_nature-x here')).toBe('token [token] here');
    expect(scrub(new Error('no user maria@example.com'))).toBe('Error: no user [email]');
    // Ids, counts, paths and times pass unchanged.
    const fields = { requestId: '3f1c-aa', status: 500, path: '/api/contact', ms: 1.5, ok: true, none: null };
    expect(scrub(fields)).toEqual(fields);
  });

  it('writes one JSON line per call, errors to their own sink, and nothing but errors when silent', () => {
    const lines: [string, string][] = [];
    const log = createLogger({ write: (line, level) => lines.push([level, line]) });
    log.info('request', { requestId: 'r1', err: 'params: secret' });
    log.error('unhandled error', { err: 'for someone@example.com' });
    expect(lines.map(([level]) => level)).toEqual(['info', 'error']);
    expect(JSON.parse(lines[0]![1])).toEqual({ time: expect.any(String), level: 'info', msg: 'request', requestId: 'r1', err: 'params: [redacted]' });
    expect(JSON.parse(lines[1]![1]).err).toBe('for [email]');

    const quiet: string[] = [];
    const silent = createLogger({ silent: true, write: (line) => quiet.push(line) });
    silent.info('request');
    silent.warn('slow');
    silent.error('failed');
    expect(quiet.map((l) => JSON.parse(l).msg)).toEqual(['failed']);
  });
});

describe('the default sinks', () => {
  it('write the lines of one turn of the event loop together, in order, with an error after what came before it', async () => {
    const writes: [string, string][] = [];
    const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      writes.push(['out', String(chunk)]);
      return true;
    });
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      writes.push(['err', String(chunk)]);
      return true;
    });
    try {
      const log = createLogger();
      log.info('one');
      log.warn('two');
      expect(writes).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(
        writes.map(([sink, text]) => [
          sink,
          text
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l).msg),
        ]),
      ).toEqual([['out', ['one', 'two']]]);
      writes.length = 0;
      log.info('three');
      log.error('four');
      expect(writes.map(([sink, text]) => [sink, JSON.parse(text.trim()).msg])).toEqual([
        ['out', 'three'],
        ['err', 'four'],
      ]);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });
});
