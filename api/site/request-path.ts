/**
 * The path of a request target, as WHATWG URL parsing gives it; null when none can be made ('//',
 * '/\\'). A plain path (no query, no escapes, no dot segments, no doubled or back slashes), which is
 * nearly every request, is its own pathname and skips the parser.
 */
export function pathnameOf(target: string | undefined): string | null {
  const raw = target ?? '/';
  // Each segment ends at its slash or at the end: one way to match, so no input backtracks.
  if (/^\/(?:[\w~-]+(?:\.[\w~-]+)*(?:\/|$))*$/.test(raw)) return raw;
  return URL.parse(raw, 'http://site')?.pathname ?? null;
}
