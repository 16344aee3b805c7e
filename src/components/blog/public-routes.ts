/** SPEC §2 public routes that search engines may list (not /login, /admin or /api). */
export const publicRoutes = [
  '/',
  '/about',
  '/attorneys',
  '/practice-areas',
  '/practice-areas/family-law',
  '/practice-areas/estate-planning',
  '/probate-calculator',
  '/blog',
  '/external-articles',
  '/contact',
  '/privacy',
  '/terms',
] as const;
