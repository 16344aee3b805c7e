import { describe, expect, it } from 'vitest';
import { blogPage, blogPagePath, pageLinks } from './pagination.ts';

describe('blogPage', () => {
  const posts = Array.from({ length: 25 }, (_, i) => i + 1);

  it('slices the list into pages of the given size, the last one shorter', () => {
    expect(blogPage(posts, 1, 12)).toEqual({ posts: posts.slice(0, 12), page: 1, pages: 3, total: 25 });
    expect(blogPage(posts, 3, 12)?.posts).toEqual([25]);
  });

  it('has no page past the last, none below 1, and always a first page', () => {
    expect(blogPage(posts, 4, 12)).toBeNull();
    expect(blogPage(posts, 0, 12)).toBeNull();
    expect(blogPage(posts, 1.5, 12)).toBeNull();
    expect(blogPage([], 1, 12)).toEqual({ posts: [], page: 1, pages: 1, total: 0 });
  });

  it('links page 1 as /blog', () => {
    expect(blogPagePath(1)).toBe('/blog');
    expect(blogPagePath(7)).toBe('/blog/page/7');
  });
});

describe('pageLinks', () => {
  it('links the first, the last and two either side, with gaps', () => {
    expect(pageLinks(1, 1)).toEqual([1]);
    expect(pageLinks(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageLinks(10, 417)).toEqual([1, null, 8, 9, 10, 11, 12, null, 417]);
    // A gap of one page is the page itself, not an ellipsis.
    expect(pageLinks(5, 9)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
