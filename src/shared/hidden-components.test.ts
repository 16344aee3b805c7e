import { describe, expect, it } from 'vitest';
import { closeMarker, hiddenPageOf, openMarker, withoutHidden } from './hidden-components.ts';

const page = [
  '<nav><ul><li><a href="/">Home</a></li>',
  `${openMarker('component', 'probate_calculator')}<li><a href="/probate-calculator">Calculator</a></li>${closeMarker('component', 'probate_calculator')}`,
  '</ul></nav><main>',
  `${openMarker('component', 'testimonials')}<section>Kind words</section>${closeMarker('component', 'testimonials')}`,
  `${openMarker('unless', 'probate_calculator')}<p>Unavailable</p>${openMarker('component', 'contact_form')}<form>contact</form>${closeMarker('component', 'contact_form')}${closeMarker('unless', 'probate_calculator')}`,
  '<p>See <a class="x" href="/probate-calculator?x=1#top">our calculator</a> or <a href="https://firm.example/probate-calculator">this</a>.</p>',
  '</main>',
].join('');

describe('withoutHidden', () => {
  it('with nothing hidden: every component stays, what stands in for one goes, and no marker is left', () => {
    const out = withoutHidden(page, new Set(), 'https://firm.example');
    expect(out).toContain('Calculator</a>');
    expect(out).toContain('Kind words');
    expect(out).not.toContain('Unavailable');
    expect(out).not.toContain('<form>');
    expect(out).not.toContain('<!--');
    expect(out).toContain('<a class="x" href="/probate-calculator?x=1#top">our calculator</a>');
  });

  it('cuts a hidden component and every link to its page, here and absolute, and shows what stands in', () => {
    const out = withoutHidden(page, new Set(['probate_calculator']), 'https://firm.example');
    expect(out).not.toContain('/probate-calculator');
    expect(out).not.toContain('<li><a href="/probate-calculator">');
    expect(out).toContain('<p>See our calculator or this.</p>');
    expect(out).toContain('<p>Unavailable</p><form>contact</form>');
    expect(out).toContain('Kind words');
    expect(out).not.toContain('<!--');
  });

  it('cuts nested components on their own', () => {
    const out = withoutHidden(page, new Set(['probate_calculator', 'contact_form', 'testimonials']), 'https://firm.example');
    expect(out).toContain('<p>Unavailable</p></main>'.replace('</main>', '<p>See'));
    expect(out).not.toContain('<form>');
    expect(out).not.toContain('Kind words');
  });

  it('keeps the rest of the page when a marker is never closed, and links to other sites alone', () => {
    const broken = `a${openMarker('component', 'testimonials')}b<a href="https://other.example/probate-calculator">c</a>`;
    expect(withoutHidden(broken, new Set(['testimonials', 'probate_calculator']), 'https://firm.example')).toBe(
      'ab<a href="https://other.example/probate-calculator">c</a>',
    );
  });

  it('is not steered by keys that are no component or markers of another shape', () => {
    const text = '<!--component:x"]{}--><p>kept</p><!--/component:x"]{}--><!-- component:testimonials --><p>also</p>';
    expect(withoutHidden(text, new Set(['x"]{}', 'testimonials']))).toBe(text);
  });
});

describe('hiddenPageOf', () => {
  it("names a hidden component's own pages, and no page of a visible one", () => {
    const hidden = new Set(['probate_calculator', 'blog_articles']);
    expect(hiddenPageOf('/probate-calculator', hidden)).toMatchObject({ component: 'probate_calculator', keepsPage: true });
    expect(hiddenPageOf('/probate-calculator/', hidden)).not.toBeNull();
    expect(hiddenPageOf('/probate-calculator/index.html', hidden)).not.toBeNull();
    for (const path of ['/blog/a-post', '/blog/page/2', '/og/blog/a-post.png', '/rss.xml'])
      expect(hiddenPageOf(path, hidden), path).toMatchObject({ component: 'blog_articles', keepsPage: false });
    for (const path of ['/blog', '/blog/', '/external-articles', '/contact', '/probate-calculator-guide']) expect(hiddenPageOf(path, hidden), path).toBeNull();
    expect(hiddenPageOf('/probate-calculator', new Set())).toBeNull();
  });
});
