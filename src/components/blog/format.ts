/** Display helpers shared by the article lists, the article page and the feeds (dates: dateLabel in src/shared/firm-time.ts). Browser-safe. */
import { practiceAreaLabels } from '../../shared/constants.ts';

/** SPEC §9: external excerpts are cut to 200 characters. */
export const EXTERNAL_EXCERPT_LENGTH = 200;

export function categoryLabel(category: string): string {
  return practiceAreaLabels[category] ?? category;
}

/** Plain text from feed markup (entities decoded for the common cases); React escapes the rest. */
export function plainText(text: string | null | undefined): string {
  return (text ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;|&apos;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/** Cut to at most `max` characters (ellipsis included), at a word boundary when one is near. */
export function truncate(text: string, max = EXTERNAL_EXCERPT_LENGTH): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Only http(s) links and images from feeds reach the page (no javascript: or data: URLs). */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
