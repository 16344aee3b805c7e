/**
 * External news articles (SPEC §2 /blog and /external-articles). On /blog a plain list (the island
 * only hides broken images); on /external-articles with a text search and a source filter over the
 * list embedded in the page.
 */
import { useId, useMemo, useRef, useState } from 'react';
import { buttonOutline } from '../home/buttons.ts';
import ExternalArticleCard from './ExternalArticleCard.tsx';
import ExternalArticlesEmpty from './ExternalArticlesEmpty.tsx';
import type { ExternalArticleView } from './external-articles.ts';

const ALL = 'all';

function ArticleGrid({ articles }: { articles: ExternalArticleView[] }) {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {articles.map((a) => (
        <li key={a.id}>
          <ExternalArticleCard article={a} />
        </li>
      ))}
    </ul>
  );
}

export default function ExternalArticles({ articles, filters = false }: { articles: ExternalArticleView[]; filters?: boolean }) {
  if (articles.length === 0) return <ExternalArticlesEmpty />;
  if (!filters) return <ArticleGrid articles={articles} />;
  return <FilteredArticles articles={articles} />;
}

function FilteredArticles({ articles }: { articles: ExternalArticleView[] }) {
  const [query, setQuery] = useState('');
  const [source, setSource] = useState(ALL);
  const searchRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const sources = useMemo(() => [...new Set(articles.map((a) => a.sourceName))].sort((a, b) => a.localeCompare(b)), [articles]);

  const visible = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return articles.filter((a) => {
      if (source !== ALL && a.sourceName !== source) return false;
      const haystack = `${a.title} ${a.excerpt} ${a.author ?? ''} ${a.sourceName}`.toLowerCase();
      return words.every((w) => haystack.includes(w));
    });
  }, [articles, query, source]);

  const filtered = query.trim() !== '' || source !== ALL;
  const clear = () => {
    setQuery('');
    setSource(ALL);
    searchRef.current?.focus();
  };

  return (
    <div>
      <form role="search" aria-label="News articles" className="grid gap-4 sm:grid-cols-[1fr_16rem]" onSubmit={(e) => e.preventDefault()}>
        <div>
          <label htmlFor={`${id}-q`} className="mb-1 block text-sm font-medium">
            Search news
          </label>
          <input
            ref={searchRef}
            id={`${id}-q`}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search by title, topic or author"
            autoComplete="off"
            className="min-h-11 w-full rounded-lg border border-input bg-background px-3 py-2 text-base placeholder:text-muted-foreground"
          />
        </div>
        <div>
          <label htmlFor={`${id}-s`} className="mb-1 block text-sm font-medium">
            Source
          </label>
          <select
            id={`${id}-s`}
            value={source}
            onChange={(e) => setSource(e.target.value)}
            className="min-h-11 w-full rounded-lg border border-input bg-background px-3 py-2 text-base"
          >
            <option value={ALL}>All Sources</option>
            {sources.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
      </form>
      <p className="mt-4 text-sm text-muted-foreground" role="status" aria-live="polite">
        {filtered ? `${visible.length} of ${articles.length} articles shown` : `${articles.length} articles`}
      </p>
      <div className="mt-4">
        {visible.length > 0 ? (
          <ArticleGrid articles={visible} />
        ) : (
          <div className="rounded-lg border border-dashed border-border px-6 py-12 text-center">
            <h3 className="text-lg font-semibold">No Articles Found</h3>
            <p className="mt-2 text-sm text-muted-foreground">No news articles match your search. Try other words or another source.</p>
            <button type="button" onClick={clear} className={`${buttonOutline} mt-6`}>
              Clear Filters
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
