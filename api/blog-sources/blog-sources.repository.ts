import { and, asc, desc, eq, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { lostRace, resealConfig, sameValue, unchangedColumn } from '../crypto/reseal.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { configIsCurrent, type SecretOwner } from '../crypto/sealed-config.ts';
import type { ParsedArticle } from './feed-source.ts';

/** Articles kept per source: the newest; older ones go when a feed keeps bringing new addresses. */
export const MAX_STORED_ARTICLES_PER_SOURCE = 200;

/** When a source is due for the schedule's fetch (blog-source-fetcher.ts fetchDueSources). */
export interface DueTimes {
  /** Fetched (or attempted) at or before this. */
  before: Date;
  /** Never fetched, and created at or before this. */
  newBefore: Date;
}

export interface StoreOutcome {
  added: number;
  updated: number;
  removed: number;
}

export function blogSourcesRepository({ db, t }: Database) {
  const sources = t.blogSources;
  const articles = t.externalBlogArticles;
  type SourceRow = typeof sources.$inferSelect;
  type SourceValues = typeof sources.$inferInsert;
  type ArticleRow = typeof articles.$inferSelect;

  function isDue({ before, newBefore }: DueTimes): SQL | undefined {
    return and(eq(sources.isActive, true), or(lte(sources.lastFetched, before), and(isNull(sources.lastFetched), lte(sources.createdAt, newBefore))));
  }

  /** The public list's order (blog-sources.routes.ts): newest first, undated last, latest fetched first. */
  const newestFirst = [sql`${articles.publishedAt} is null`, desc(articles.publishedAt), desc(articles.fetchedAt), desc(articles.id)];

  /** Keeps the newest MAX_STORED_ARTICLES_PER_SOURCE of a source; returns how many went. */
  async function prune(sourceId: string): Promise<number> {
    const stale = await db
      .select({ id: articles.id })
      .from(articles)
      .where(eq(articles.sourceId, sourceId))
      .orderBy(...newestFirst)
      .limit(100_000)
      .offset(MAX_STORED_ARTICLES_PER_SOURCE);
    for (let i = 0; i < stale.length; i += 500) {
      await db.delete(articles).where(
        inArray(
          articles.id,
          stale.slice(i, i + 500).map((r) => r.id),
        ),
      );
    }
    return stale.length;
  }

  return {
    /**
     * SPEC §2/§9: a source "Shows N articles" (its displayLimit), so each active source contributes
     * at most its N newest visible articles; the list is newest first, undated articles last.
     */
    async listPublicArticles() {
      const ranked = db
        .select({
          id: articles.id,
          sourceId: articles.sourceId,
          sourceName: sql<string>`${sources.name}`.as('source_name'),
          title: articles.title,
          url: articles.url,
          excerpt: articles.excerpt,
          author: articles.author,
          publishedAt: articles.publishedAt,
          imageUrl: articles.imageUrl,
          isVisible: articles.isVisible,
          fetchedAt: articles.fetchedAt,
          displayLimit: sql<number>`${sources.displayLimit}`.as('display_limit'),
          rank: sql<number>`row_number() over (partition by ${articles.sourceId} order by ${sql.join(newestFirst, sql`, `)})`.as('rank_in_source'),
        })
        .from(articles)
        .innerJoin(sources, eq(articles.sourceId, sources.id))
        .where(and(eq(articles.isVisible, true), eq(sources.isActive, true)))
        .as('ranked');
      return db
        .select({
          id: ranked.id,
          sourceId: ranked.sourceId,
          sourceName: ranked.sourceName,
          title: ranked.title,
          url: ranked.url,
          excerpt: ranked.excerpt,
          author: ranked.author,
          publishedAt: ranked.publishedAt,
          imageUrl: ranked.imageUrl,
          isVisible: ranked.isVisible,
          fetchedAt: ranked.fetchedAt,
        })
        .from(ranked)
        .where(lte(ranked.rank, ranked.displayLimit))
        .orderBy(sql`${ranked.publishedAt} is null`, desc(ranked.publishedAt), desc(ranked.fetchedAt), desc(ranked.id))
        .limit(200);
    },

    /** Newest first, each with how many articles it has stored. */
    async listWithCounts() {
      const counts = db
        .select({ sourceId: articles.sourceId, n: sql<number>`cast(count(*) as integer)`.as('n') })
        .from(articles)
        .groupBy(articles.sourceId)
        .as('counts');
      const rows = await db
        .select({ source: sources, articleCount: sql<number>`coalesce(${counts.n}, 0)`.mapWith(Number) })
        .from(sources)
        .leftJoin(counts, eq(counts.sourceId, sources.id))
        .orderBy(desc(sources.createdAt));
      return rows.map((r) => ({ ...r.source, articleCount: r.articleCount }));
    },

    async findById(id: string): Promise<SourceRow | null> {
      const [row] = await db.select().from(sources).where(eq(sources.id, id));
      return row ?? null;
    },

    async countArticles(sourceId: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`cast(count(*) as integer)`.mapWith(Number) })
        .from(articles)
        .where(eq(articles.sourceId, sourceId));
      return row?.n ?? 0;
    },

    async create(values: SourceValues): Promise<SourceRow> {
      const [row] = await db.insert(sources).values(values).returning();
      return row!;
    },

    async remove(id: string): Promise<boolean> {
      // Its external articles go with it (foreign key, on delete cascade).
      const rows = await db.delete(sources).where(eq(sources.id, id)).returning({ id: sources.id });
      return rows.length > 0;
    },

    /**
     * Active sources not fetched since `due.before`, and those never fetched that were created before
     * `due.newBefore` (a newer one's first fetch is its create's, still under way); the longest waiting first.
     */
    async listDue(due: DueTimes, limit: number): Promise<SourceRow[]> {
      return db
        .select()
        .from(sources)
        .where(isDue(due))
        .orderBy(sql`${sources.lastFetched} is not null`, asc(sources.lastFetched), asc(sources.createdAt))
        .limit(limit);
    },

    /**
     * Takes a due source for this attempt: only one of several servers (or overlapping runs) wins,
     * because the condition is checked and lastFetched moved in one statement.
     */
    async claim(id: string, due: DueTimes, now: Date): Promise<boolean> {
      const rows = await db
        .update(sources)
        .set({ lastFetched: now })
        .where(and(eq(sources.id, id), isDue(due)))
        .returning({ id: sources.id });
      return rows.length > 0;
    },

    /** The attempt's time and its error (null on success); the updated row, or null if it was deleted meanwhile. */
    async recordResult(id: string, lastFetched: Date, lastError: string | null): Promise<SourceRow | null> {
      const [row] = await db.update(sources).set({ lastFetched, lastError }).where(eq(sources.id, id)).returning();
      return row ?? null;
    },

    /**
     * Stores a fetch's articles: one row per (source, externalId) when the feed gives ids, else per
     * (source, url) (a unique constraint, so two fetches at once cannot both insert). Known
     * articles are updated only where the feed changed them; the admin's isVisible stays.
     */
    async storeArticles(sourceId: string, parsed: ParsedArticle[], now: Date): Promise<StoreOutcome> {
      const outcome: StoreOutcome = { added: 0, updated: 0, removed: 0 };
      if (!parsed.length) return outcome;
      const ids = [...new Set(parsed.map((a) => a.externalId).filter((id): id is string => Boolean(id)))];
      const urls = [...new Set(parsed.map((a) => a.url))];
      const match: SQL[] = [inArray(articles.url, urls)];
      if (ids.length) match.push(inArray(articles.externalId, ids));
      const existing = await db
        .select()
        .from(articles)
        .where(and(eq(articles.sourceId, sourceId), or(...match)));
      const byId = new Map<string, ArticleRow>();
      const byUrl = new Map<string, ArticleRow>();
      for (const row of existing) {
        if (row.externalId) byId.set(row.externalId, row);
        byUrl.set(row.url, row);
      }

      /** What a fetch says of an article, as stored. */
      const fieldsOf = (a: ParsedArticle) => ({
        title: a.title,
        url: a.url,
        excerpt: a.excerpt,
        content: a.content,
        author: a.author,
        publishedAt: a.publishedAt,
        imageUrl: a.imageUrl,
      });

      const update = async (row: ArticleRow, a: ParsedArticle) => {
        const next = { ...fieldsOf(a), externalId: a.externalId ?? row.externalId };
        // Another stored article already has this address: keep this one's (the url is unique per source).
        const holder = byUrl.get(next.url);
        if (next.url !== row.url && holder && holder.id !== row.id) next.url = row.url;
        const changes: Partial<typeof next> = {};
        for (const key of Object.keys(next) as (keyof typeof next)[]) {
          const before = row[key];
          const after = next[key];
          const same =
            before instanceof Date || after instanceof Date ? (before as Date | null)?.getTime() === (after as Date | null)?.getTime() : before === after;
          if (!same) (changes as Record<string, unknown>)[key] = after;
        }
        if (!Object.keys(changes).length) return;
        await db.update(articles).set(changes).where(eq(articles.id, row.id));
        outcome.updated++;
      };

      // Newest first, a millisecond apart: undated articles keep the feed's order in the public list.
      for (const [i, a] of parsed.entries()) {
        const known = (a.externalId ? byId.get(a.externalId) : undefined) ?? byUrl.get(a.url);
        if (known) {
          await update(known, a);
          continue;
        }
        const inserted = await db
          .insert(articles)
          .values({ sourceId, ...fieldsOf(a), externalId: a.externalId, fetchedAt: new Date(now.getTime() - i) })
          .onConflictDoNothing({ target: [articles.sourceId, articles.url] })
          .returning();
        if (inserted[0]) {
          outcome.added++;
          byUrl.set(a.url, inserted[0]);
          if (a.externalId) byId.set(a.externalId, inserted[0]);
          continue;
        }
        // Another fetch of this source stored it a moment ago: update it like a known one.
        const [raced] = await db
          .select()
          .from(articles)
          .where(and(eq(articles.sourceId, sourceId), eq(articles.url, a.url)));
        if (raced) await update(raced, a);
      }

      outcome.removed = await prune(sourceId);
      return outcome;
    },
  };
}

export type BlogSourcesRepository = ReturnType<typeof blogSourcesRepository>;
export type BlogSourceRow = Awaited<ReturnType<BlogSourcesRepository['create']>>;

/** This table's part of `npm run secrets:rotate` (api/crypto/reseal.ts): the rows it rewrote. */
export async function resealBlogSources({ db, t }: Database, box: SecretBox): Promise<number> {
  const table = t.blogSources;
  let count = 0;
  for (const row of await db.select({ id: table.id, config: table.config }).from(table)) {
    const owner: SecretOwner = { table: 'blog-sources', id: row.id };
    if (configIsCurrent(box, row.config, 'blog-source')) continue;
    const written = await db
      .update(table)
      .set({ config: resealConfig(box, row.config, 'blog-source', owner), updatedAt: unchangedColumn(table.updatedAt) })
      .where(and(eq(table.id, row.id), sameValue(table.config, row.config)))
      .returning({ id: table.id });
    if (written.length) count++;
    else {
      const [now] = await db.select({ config: table.config }).from(table).where(eq(table.id, row.id));
      if (now && !configIsCurrent(box, now.config, 'blog-source')) lostRace(owner);
    }
  }
  return count;
}
