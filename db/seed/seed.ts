/**
 * Seeds a database. Always (idempotent): the eight default components of SPEC §3 and the default
 * theme (Professional Blue, active). Once, on a fresh database only: the sample testimonials and
 * posts, so an admin who deletes them does not see them come back at the next start. Every start:
 * installed templates still exactly as installed before templates had variants get the template's
 * dark (and warm) variants (decision 031), so the default theme keeps offering Dark and Warm.
 *
 * Several API containers may start at once on a fresh database, each seeding it. Without transactions
 * (docs/decisions/002-two-dialects.md), the one whose default-theme insert actually wrote the row (the
 * theme name is unique, so exactly one does) is the one that writes the samples; the others see a
 * conflict and leave them alone, instead of each adding another copy of the testimonials.
 */
import { count, eq } from 'drizzle-orm';
import { componentCatalogue } from '../../src/shared/constants.ts';
import { defaultThemeName, findThemeTemplate, themeTemplates } from '../../src/shared/theme-templates.ts';
import { extraVariants } from '../../src/shared/theme-variables.ts';
import type { Database } from '../client.ts';
import { samplePosts, sampleTestimonials } from './sample-content.ts';

export interface SeedResult {
  components: number;
  themes: number;
  testimonials: number;
  posts: number;
}

export async function seedDatabase({ db, t }: Database, options: { sampleContent?: boolean } = {}): Promise<SeedResult> {
  const counts = await Promise.all(
    [t.themeSettings, t.testimonials, t.blogPosts, t.componentVisibilitySettings].map(async (table) => (await db.select({ n: count() }).from(table))[0]!.n),
  );
  const fresh = counts.every((n) => n === 0);
  const result: SeedResult = { components: 0, themes: 0, testimonials: 0, posts: 0 };

  const components = await db
    .insert(t.componentVisibilitySettings)
    .values(componentCatalogue.map((c) => ({ ...c, isVisible: true })))
    .onConflictDoNothing({ target: t.componentVisibilitySettings.componentKey })
    .returning({ id: t.componentVisibilitySettings.id });
  result.components = components.length;

  if (counts[0] === 0) {
    const template = findThemeTemplate(defaultThemeName)!;
    const themes = await db
      .insert(t.themeSettings)
      .values({
        name: template.name,
        displayName: template.displayName,
        description: template.description,
        cssVariables: JSON.stringify(template.cssVariables),
        isActive: true,
        isDefault: true,
      })
      .onConflictDoNothing({ target: t.themeSettings.name })
      .returning({ id: t.themeSettings.id });
    result.themes = themes.length;
  }

  await addTemplateVariants({ db, t });

  // `result.themes === 1`: this run installed the first theme, so it owns the fresh database's samples.
  if (fresh && result.themes === 1 && options.sampleContent !== false) {
    result.testimonials = (
      await db
        .insert(t.testimonials)
        .values([...sampleTestimonials])
        .returning({ id: t.testimonials.id })
    ).length;
    result.posts = (
      await db
        .insert(t.blogPosts)
        // Written when they were published, not at seeding: the sitemap's lastmod and the articles'
        // modified dates say so (a crawler told every page changed at install would refetch them all).
        .values(samplePosts.map((post) => ({ ...post, ...(post.publishedAt && { createdAt: post.publishedAt, updatedAt: post.publishedAt }) })))
        .onConflictDoNothing({ target: t.blogPosts.slug })
        .returning({ id: t.blogPosts.id })
    ).length;
  }
  return result;
}

/**
 * An installed template whose variables are still exactly the template's light palette (installed
 * before templates had variants, and never edited) gets the template's variants: its visitors keep
 * their Dark (and Warm) mode. An edited theme is the admin's and is left as it is. Idempotent.
 */
async function addTemplateVariants({ db, t }: Pick<Database, 'db' | 't'>) {
  const rows = await db.select({ id: t.themeSettings.id, name: t.themeSettings.name, cssVariables: t.themeSettings.cssVariables }).from(t.themeSettings);
  for (const row of rows) {
    const template = themeTemplates.find((tpl) => tpl.name === row.name);
    if (!template || !extraVariants.some((v) => template.cssVariables[v])) continue;
    const { dark: _dark, warm: _warm, ...light } = template.cssVariables;
    let stored: unknown;
    try {
      stored = JSON.parse(row.cssVariables);
    } catch {
      continue;
    }
    if (JSON.stringify(stored) !== JSON.stringify(light)) continue;
    await db
      .update(t.themeSettings)
      .set({ cssVariables: JSON.stringify(template.cssVariables) })
      .where(eq(t.themeSettings.id, row.id));
  }
}
