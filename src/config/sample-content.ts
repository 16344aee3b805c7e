/**
 * Whether the public pages may stand in built-in sample content (src/content) for what the firm has
 * none of yet: testimonials, articles and the external reviews (issue 19). Invented clients and
 * reviews presented as real are the firm's liability (Cal. RPC 7.1, the FTC's endorsement guides):
 * on while developing, off in production, unless SAMPLE_CONTENT=true or false says otherwise. Read by
 * the pages the server renders (never shipped to a browser).
 */
export function sampleContentShown(env: Record<string, string | undefined> = process.env): boolean {
  if (env.SAMPLE_CONTENT === 'true') return true;
  if (env.SAMPLE_CONTENT === 'false') return false;
  return env.NODE_ENV !== 'production';
}
