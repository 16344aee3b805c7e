// @vitest-environment happy-dom
/** Which clicks leave the post's page and are held while there is unsaved work (./leave-guard.ts). */
import { describe, expect, it } from 'vitest';
import { leavingLinkHref } from './leave-guard.ts';

const here = new URL('https://firm.example/admin/blog-posts/new');

function click(html: string, init: Partial<MouseEvent> = {}) {
  document.body.innerHTML = html;
  const target = document.querySelector('[data-click]') ?? document.body.firstElementChild;
  return leavingLinkHref({ button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false, defaultPrevented: false, target, ...init }, here);
}

describe('a click that leaves the page', () => {
  it('a link on this site, or a word inside one, loads another page here: held', () => {
    expect(click('<a href="/admin/blog-posts">Cancel</a>')).toBe('/admin/blog-posts');
    expect(click('<a href="/admin"><span data-click>Back</span></a>')).toBe('/admin');
    expect(click('<a href="https://firm.example/blog?x=1#top">Blog</a>')).toBe('/blog?x=1#top');
  });

  it('a new tab, a download, a modifier key, another button, another site, a place on this page: not held', () => {
    expect(click('<a href="/blog" target="_blank">Blog</a>')).toBeNull();
    expect(click('<a href="/file.pdf" download>File</a>')).toBeNull();
    for (const key of ['metaKey', 'ctrlKey', 'shiftKey', 'altKey'] as const) expect(click('<a href="/blog">Blog</a>', { [key]: true }), key).toBeNull();
    expect(click('<a href="/blog">Blog</a>', { button: 1 })).toBeNull();
    expect(click('<a href="https://other.example/">Elsewhere</a>')).toBeNull();
    expect(click('<a href="#main">Skip to content</a>')).toBeNull();
    expect(click('<a href="/blog">Blog</a>', { defaultPrevented: true })).toBeNull();
    expect(click('<button>Save</button>')).toBeNull();
  });

  it('a link to this same page without a hash reloads it: held', () => {
    expect(click('<a href="/admin/blog-posts/new">New Blog Post</a>')).toBe('/admin/blog-posts/new');
  });
});
