/**
 * SPEC §5 slug generation: lowercase; strip characters other than letters, digits, spaces and
 * hyphens; turn whitespace runs into hyphens; collapse repeated hyphens. Leading and trailing hyphens
 * are trimmed too, so a URL never starts or ends with one.
 *
 * Slugs are ASCII (isSlug), so accented Latin letters are folded to their base letter first
 * ("Café Résumé" -> "cafe-resume") instead of being stripped ("caf-rsum"); letters with no ASCII
 * form (CJK, Cyrillic...) are stripped, as the rule says.
 */
const foldings: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßæœøłđðþı]/g, (c) => foldings[c] ?? '')
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

export function isSlug(value: string): boolean {
  return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);
}
