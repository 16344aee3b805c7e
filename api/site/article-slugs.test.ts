import { describe, expect, it } from 'vitest';
import type { Logger } from '../logger.ts';
import { createArticleSlugs } from './article-slugs.ts';

const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** A load the test answers by hand: each call waits for `answer`. */
function manualLoad() {
  const calls: ((slugs: string[] | Error) => void)[] = [];
  const load = () =>
    new Promise<string[]>((resolve, reject) => {
      calls.push((slugs) => (slugs instanceof Error ? reject(slugs) : resolve(slugs)));
    });
  const answer = async (slugs: string[] | Error) => {
    while (!calls.length) await new Promise((r) => setImmediate(r));
    calls.shift()!(slugs);
  };
  return { load, answer };
}

describe('createArticleSlugs', () => {
  it('knows the loaded slugs and no others', async () => {
    const slugs = createArticleSlugs(async () => ['a-post', 'its-old-slug'], quiet);
    await slugs.reload();
    expect(slugs.exists('a-post')).toBe(true);
    expect(slugs.exists('its-old-slug')).toBe(true);
    expect(slugs.exists('no-such-post')).toBe(false);
    expect(slugs.exists('A-POST')).toBe(false);
  });

  it('lets every slug through while nothing is loaded, and loads', async () => {
    let loads = 0;
    const slugs = createArticleSlugs(async () => (loads++, ['a-post']), quiet);
    expect(slugs.exists('anything')).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(loads).toBe(1);
    expect(slugs.exists('anything')).toBe(false);
  });

  it('counts the slugs a change names at once, and drops them once a later load says they are gone', async () => {
    const { load, answer } = manualLoad();
    const slugs = createArticleSlugs(load, quiet);
    const first = slugs.reload();
    await answer(['a-post']);
    await first;
    const changed = slugs.changed(['new-post', 'a-post']);
    expect(slugs.exists('new-post')).toBe(true); // before the load answers
    await answer(['a-post']); // the post was not published after all
    await changed;
    expect(slugs.exists('new-post')).toBe(false);
  });

  it('never lets a load that started before a change drop the slugs the change named', async () => {
    const { load, answer } = manualLoad();
    const slugs = createArticleSlugs(load, quiet);
    const first = slugs.reload();
    const changed = slugs.changed(['new-post']); // the load in flight may have read before the write
    await answer(['a-post']);
    await new Promise((r) => setImmediate(r));
    expect(slugs.exists('new-post')).toBe(true);
    await answer(['a-post', 'new-post']); // loaded again, after the change
    await Promise.all([first, changed]);
    expect(slugs.exists('new-post')).toBe(true);
    expect(slugs.exists('a-post')).toBe(true);
  });

  it('keeps the last set when a load fails, and tries again on the next change', async () => {
    const { load, answer } = manualLoad();
    const errors: string[] = [];
    const slugs = createArticleSlugs(load, { ...quiet, error: (message) => errors.push(message) });
    const first = slugs.reload();
    await answer(['a-post']);
    await first;
    const failed = slugs.changed(['b-post']);
    await answer(new Error('database down'));
    await expect(failed).rejects.toThrow('database down');
    expect(errors).toEqual(['article slugs could not be loaded']);
    expect(slugs.exists('a-post')).toBe(true);
    expect(slugs.exists('b-post')).toBe(true);
    const again = slugs.changed([]);
    await answer(['a-post']);
    await again;
    expect(slugs.exists('b-post')).toBe(false);
  });
});
