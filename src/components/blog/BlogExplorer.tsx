/**
 * /blog internal articles (SPEC §2): text search and a category filter (all, estate-planning,
 * family-law, divorce, probate); SPEC §8 empty state 'No Articles Found' with Clear Filters. The page
 * renders its page of the list to HTML first, so it reads without JavaScript; the island only
 * filters. A search or filter covers every published article: past one page, the island fetches the
 * public list (GET /api/blog-posts, kept by the server and the CDN) the first time it is needed.
 */
import { blogCategories } from '../../shared/constants.ts';
import { categoryLabel } from './format.ts';
import PostCard, { type PostCardPost } from './PostCard.tsx';
import { SearchFilter } from './search-filter.tsx';

const options = blogCategories.map((c) => ({ value: c, label: categoryLabel(c) }));
const text = (p: PostCardPost) => `${p.title} ${p.excerpt} ${p.author} ${categoryLabel(p.category)}`;
const category = (p: PostCardPost) => p.category;
/** The client only when a visitor searches past this page: it is not in the page's first download. */
const loadAll = async (): Promise<PostCardPost[]> => {
  const { api, read } = await import('../../lib/api-client.ts');
  return read(api['blog-posts'].$get({ query: {} }));
};

export default function BlogExplorer({ posts, total }: { posts: PostCardPost[]; total: number }) {
  return (
    <SearchFilter
      items={posts}
      total={total}
      loadAll={loadAll}
      text={text}
      filterValue={category}
      label="Articles"
      searchLabel="Search articles"
      filterLabel="Category"
      allLabel="All Categories"
      options={options}
      columns="sm:grid-cols-[1fr_14rem]"
      emptyHint="No articles match your search. Try other words or another category."
    >
      {(visible) => (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {visible.map((post) => (
            <li key={post.id}>
              <PostCard post={post} />
            </li>
          ))}
        </ul>
      )}
    </SearchFilter>
  );
}
