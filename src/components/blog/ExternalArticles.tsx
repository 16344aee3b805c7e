/**
 * External news articles (SPEC §2 /blog and /external-articles). On /blog a plain list (the island
 * only hides broken images); on /external-articles with a text search and a source filter over the
 * list embedded in the page.
 */
import { useMemo } from 'react';
import ExternalArticleCard from './ExternalArticleCard.tsx';
import ExternalArticlesEmpty from './ExternalArticlesEmpty.tsx';
import type { ExternalArticleView } from './external-articles.ts';
import { SearchFilter } from './search-filter.tsx';

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

const text = (a: ExternalArticleView) => `${a.title} ${a.excerpt} ${a.author ?? ''} ${a.sourceName}`;
const sourceOf = (a: ExternalArticleView) => a.sourceName;

function FilteredArticles({ articles }: { articles: ExternalArticleView[] }) {
  const options = useMemo(() => [...new Set(articles.map(sourceOf))].sort((a, b) => a.localeCompare(b)).map((s) => ({ value: s, label: s })), [articles]);
  return (
    <SearchFilter
      items={articles}
      text={text}
      filterValue={sourceOf}
      label="News articles"
      searchLabel="Search news"
      filterLabel="Source"
      allLabel="All Sources"
      options={options}
      columns="sm:grid-cols-[1fr_16rem]"
      emptyHint="No news articles match your search. Try other words or another source."
    >
      {(visible) => <ArticleGrid articles={visible} />}
    </SearchFilter>
  );
}
