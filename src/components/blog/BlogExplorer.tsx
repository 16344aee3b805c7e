/**
 * /blog internal articles (SPEC §2): text search and a category filter (all, estate-planning,
 * family-law, divorce, probate) over the list embedded in the page; SPEC §8 empty state 'No Articles
 * Found' with Clear Filters. The page renders the same list to HTML first, so it reads without
 * JavaScript; the island only filters.
 */
import { useId, useMemo, useRef, useState } from 'react';
import { blogCategories } from '../../shared/constants.ts';
import { buttonOutline } from '../home/buttons.ts';
import { categoryLabel } from './format.ts';
import PostCard, { type PostCardPost } from './PostCard.tsx';

const ALL = 'all';

export default function BlogExplorer({ posts }: { posts: PostCardPost[] }) {
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<string>(ALL);
  const searchRef = useRef<HTMLInputElement>(null);
  const id = useId();

  const visible = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return posts.filter((p) => {
      if (category !== ALL && p.category !== category) return false;
      const haystack = `${p.title} ${p.excerpt} ${p.author} ${categoryLabel(p.category)}`.toLowerCase();
      return words.every((w) => haystack.includes(w));
    });
  }, [posts, query, category]);

  const filtered = query.trim() !== '' || category !== ALL;
  const clear = () => {
    setQuery('');
    setCategory(ALL);
    searchRef.current?.focus();
  };

  return (
    <div>
      <form role="search" aria-label="Articles" className="grid gap-4 sm:grid-cols-[1fr_14rem]" onSubmit={(e) => e.preventDefault()}>
        <div>
          <label htmlFor={`${id}-q`} className="mb-1 block text-sm font-medium">
            Search articles
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
          <label htmlFor={`${id}-c`} className="mb-1 block text-sm font-medium">
            Category
          </label>
          <select
            id={`${id}-c`}
            value={category}
            onChange={(e) => setCategory(e.target.value)}
            className="min-h-11 w-full rounded-lg border border-input bg-background px-3 py-2 text-base"
          >
            <option value={ALL}>All Categories</option>
            {blogCategories.map((c) => (
              <option key={c} value={c}>
                {categoryLabel(c)}
              </option>
            ))}
          </select>
        </div>
      </form>

      <p className="mt-4 text-sm text-muted-foreground" role="status" aria-live="polite">
        {filtered ? `${visible.length} of ${posts.length} articles shown` : `${posts.length} articles`}
      </p>

      {visible.length > 0 ? (
        <ul className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {visible.map((post) => (
            <li key={post.id}>
              <PostCard post={post} />
            </li>
          ))}
        </ul>
      ) : (
        <div className="mt-4 rounded-lg border border-dashed border-border px-6 py-12 text-center">
          <h3 className="text-lg font-semibold">No Articles Found</h3>
          <p className="mt-2 text-sm text-muted-foreground">No articles match your search. Try other words or another category.</p>
          <button type="button" onClick={clear} className={`${buttonOutline} mt-6`}>
            Clear Filters
          </button>
        </div>
      )}
    </div>
  );
}
