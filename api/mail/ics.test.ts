/**
 * The calendar attachment (RFC 5545): structure, firm-time DTSTART/DTEND with a VTIMEZONE that puts
 * them at the right instant on both sides of daylight-saving changes (checked by parsing with ical.js,
 * an independent implementation, using only the file's own VTIMEZONE), text escaping and line folding.
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { addDays, firmInstant } from '../../src/shared/firm-time.ts';
import { buildIcs, escapeText, foldLine, type CalendarEvent } from './ics.ts';

const event = (patch: Partial<CalendarEvent> = {}): CalendarEvent => ({
  uid: 'appointment-1234@pacificcrestlaw.com',
  method: 'REQUEST',
  sequence: 0,
  start: new Date('2030-05-06T17:30:00.000Z'),
  durationMinutes: 60,
  stamp: new Date('2030-04-01T16:00:05.000Z'),
  summary: 'Estate Planning Review with Pacific Crest Law Group',
  description: 'Estate Planning Review (60 minutes).',
  location: 'Pacific Crest Law Group, 600 West Broadway, Suite 1200, San Diego, CA 92101',
  organizer: { name: 'Pacific Crest Law Group', email: 'info@pacificcrestlaw.com' },
  attendee: { name: 'Maria Lopez', email: 'maria.lopez@example.com' },
  ...patch,
});

/** Parses with ical.js, registering the file's own VTIMEZONE (not ical.js's built-in knowledge). */
function parse(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const vtimezone = calendar.getFirstSubcomponent('vtimezone')!;
  const zone = new ICAL.Timezone(vtimezone);
  ICAL.TimezoneService.reset();
  ICAL.TimezoneService.register(zone);
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  return { calendar, vevent, zone, event: new ICAL.Event(vevent) };
}

/** The content lines as written (folded), without the final CRLF. */
const rawLines = (ics: string) => ics.slice(0, -2).split('\r\n');
/** Unfolded content lines (RFC 5545 §3.1). */
const unfolded = (ics: string) =>
  ics
    .replace(/\r\n[ \t]/g, '')
    .slice(0, -2)
    .split('\r\n');

describe('buildIcs', () => {
  it('writes a VCALENDAR with PRODID, VERSION 2.0, METHOD, a Los Angeles VTIMEZONE and one VEVENT, CRLF line ends', () => {
    const ics = buildIcs(event());
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = unfolded(ics);
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines.at(-1)).toBe('END:VCALENDAR');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PRODID:.+/),
        'VERSION:2.0',
        'METHOD:REQUEST',
        'BEGIN:VTIMEZONE',
        'TZID:America/Los_Angeles',
        'UID:appointment-1234@pacificcrestlaw.com',
        'SEQUENCE:0',
        'DTSTAMP:20300401T160005Z',
        // 17:30Z on 6 May 2030 is 10:30 AM PDT; 60 minutes later is 11:30.
        'DTSTART;TZID=America/Los_Angeles:20300506T103000',
        'DTEND;TZID=America/Los_Angeles:20300506T113000',
        'SUMMARY:Estate Planning Review with Pacific Crest Law Group',
        'LOCATION:Pacific Crest Law Group\\, 600 West Broadway\\, Suite 1200\\, San Diego\\, CA 92101',
        'ORGANIZER;CN="Pacific Crest Law Group":mailto:info@pacificcrestlaw.com',
        'ATTENDEE;CN="Maria Lopez";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:maria.lopez@example.com',
        'STATUS:CONFIRMED',
      ]),
    );
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);

    const { calendar, event: parsed } = parse(ics);
    expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(parsed.uid).toBe('appointment-1234@pacificcrestlaw.com');
    expect(parsed.startDate.toJSDate().toISOString()).toBe('2030-05-06T17:30:00.000Z');
    expect(parsed.endDate.toJSDate().toISOString()).toBe('2030-05-06T18:30:00.000Z');
    expect(parsed.startDate.zone?.tzid).toBe('America/Los_Angeles');
    expect(parsed.location).toBe('Pacific Crest Law Group, 600 West Broadway, Suite 1200, San Diego, CA 92101');
    expect(parsed.organizer).toBe('mailto:info@pacificcrestlaw.com');
  });

  it('cancels the same event with METHOD:CANCEL, STATUS:CANCELLED and a higher SEQUENCE', () => {
    const request = parse(buildIcs(event()));
    const cancel = parse(buildIcs(event({ method: 'CANCEL', sequence: 1 })));
    expect(cancel.calendar.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(cancel.vevent.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(cancel.event.uid).toBe(request.event.uid);
    expect(cancel.event.sequence).toBeGreaterThan(request.event.sequence);
    expect(cancel.event.startDate.toJSDate().getTime()).toBe(request.event.startDate.toJSDate().getTime());
  });

  // 2030: daylight time starts Sunday 10 March and ends Sunday 3 November.
  it.each([
    ['Friday before spring-forward', '2030-03-08', '17:00:00', '20300308T090000'],
    ['Monday after spring-forward', '2030-03-11', '16:00:00', '20300311T090000'],
    ['Friday before fall-back', '2030-11-01', '16:00:00', '20301101T090000'],
    ['Monday after fall-back', '2030-11-04', '17:00:00', '20301104T090000'],
  ])('a 9:00 AM consultation on the %s is 9:00 AM local and parses to the right instant', (_name, date, utcTime, local) => {
    const start = firmInstant(date, '09:00');
    expect(start.toISOString()).toBe(`${date}T${utcTime}.000Z`);
    const ics = buildIcs(event({ start, durationMinutes: 30 }));
    expect(unfolded(ics)).toContain(`DTSTART;TZID=America/Los_Angeles:${local}`);
    expect(unfolded(ics)).toContain(`DTEND;TZID=America/Los_Angeles:${local.replace('T0900', 'T0930')}`);
    const { event: parsed } = parse(ics);
    expect(parsed.startDate.toJSDate().toISOString()).toBe(start.toISOString());
    expect(parsed.endDate.toJSDate().getTime() - parsed.startDate.toJSDate().getTime()).toBe(30 * 60_000);
  });

  it("keeps the VTIMEZONE's rules in step with the system time-zone data, every day from 2026 to 2045", () => {
    const { zone } = parse(buildIcs(event()));
    const mismatches: string[] = [];
    for (let date = '2026-01-01'; date < '2046-01-01'; date = addDays(date, 1)) {
      for (const time of ['09:00', '16:00']) {
        const [y, m, d] = date.split('-').map(Number) as [number, number, number];
        const [hh, mm] = time.split(':').map(Number) as [number, number];
        const local = ICAL.Time.fromData({ year: y, month: m, day: d, hour: hh, minute: mm, second: 0, isDate: false }, zone);
        const expected = firmInstant(date, time).getTime();
        if (local.toUnixTime() * 1000 !== expected) mismatches.push(`${date} ${time}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('escapes backslashes, semicolons, commas and line breaks in text, and ical.js reads back the original', () => {
    const text = 'Smith, Jones; "A\\B"\r\nsecond line\nthird';
    expect(escapeText(text)).toBe('Smith\\, Jones\\; "A\\\\B"\\nsecond line\\nthird');
    const { event: parsed } = parse(buildIcs(event({ summary: text, description: text, location: 'Suite 1200; Floor 12, Room A' })));
    expect(parsed.summary).toBe(text.replace(/\r\n/g, '\n'));
    expect(parsed.description).toBe(text.replace(/\r\n/g, '\n'));
    expect(parsed.location).toBe('Suite 1200; Floor 12, Room A');
  });

  it('keeps parameter values and addresses from breaking the line', () => {
    const ics = buildIcs(event({ attendee: { name: 'Ana "The Client": Smith;x=y', email: 'ana@example.com' } }));
    const line = unfolded(ics).find((l) => l.startsWith('ATTENDEE'))!;
    expect(line).toBe('ATTENDEE;CN="Ana The Client: Smith;x=y";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:ana@example.com');
    const { vevent } = parse(ics);
    const attendee = vevent.getFirstProperty('attendee')!;
    expect(attendee.getParameter('cn')).toBe('Ana The Client: Smith;x=y');
    expect(attendee.getFirstValue()).toBe('mailto:ana@example.com');
  });

  it('folds lines longer than 75 octets without splitting a UTF-8 character, and unfolding restores them', () => {
    const description = `${'Señora Müller — consulta sobre el fideicomiso familiar 📅 '.repeat(8)}end`;
    const ics = buildIcs(event({ description }));
    const lines = rawLines(ics);
    for (const line of lines) {
      expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
      // A split character would not survive the round trip through bytes.
      expect(Buffer.from(line, 'utf8').toString('utf8')).toBe(line);
      expect(line).not.toContain('\uFFFD');
    }
    const continuation = lines.filter((l) => l.startsWith(' '));
    expect(continuation.length).toBeGreaterThan(3);
    expect(unfolded(ics)).toContain(`DESCRIPTION:${escapeText(description)}`);
    expect(parse(ics).event.description).toBe(description);
  });

  it('folds at exactly 75 octets, the leading space counting', () => {
    const folded = foldLine(`X:${'a'.repeat(200)}`).split('\r\n');
    expect(folded.map((l) => l.length)).toEqual([75, 75, 54]);
    expect(folded.slice(1).every((l) => l.startsWith(' '))).toBe(true);
    expect(folded.join('').replace(/ (?=a)/g, '')).toBe(`X:${'a'.repeat(200)}`);
    expect(foldLine('SHORT:line')).toBe('SHORT:line');
    expect(foldLine('Y:' + 'a'.repeat(73))).toBe('Y:' + 'a'.repeat(73));
  });
});
