/**
 * SPEC §5 slug generation: lowercase; strip characters other than letters, digits, spaces and
 * hyphens; turn whitespace runs into hyphens; collapse repeated hyphens. Leading and trailing hyphens
 * are trimmed too, so a URL never starts or ends with one.
 */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

export function isSlug(value: string): boolean {
  return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);
}
