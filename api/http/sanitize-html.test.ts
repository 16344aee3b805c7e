import { describe, expect, it } from 'vitest';
import { sanitizeArticleHtml } from './sanitize-html.ts';

/** As a feed's article would be sanitised: addresses on the publisher's site (api/blog-sources/feed-parsers.ts resolves the same way). */
const fromElsewhere = (html: string) =>
  sanitizeArticleHtml(html, {
    resolveExternalUrl: (address) => {
      try {
        const url = new URL(address, 'https://news.example.com/posts/1');
        return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
      } catch {
        return null;
      }
    },
  });

/** The rules both kinds of article share: each case runs through both. */
const both = [
  ['own', sanitizeArticleHtml],
  ['external', fromElsewhere],
] as const;

describe('sanitizeArticleHtml: the rules every article shares', () => {
  it.each(both)('%s: keeps the formatting tags and attributes of the allowlist', (_, sanitize) => {
    const html =
      '<h2>H</h2><h3>H</h3><h4>H</h4><p>a<br>b</p><hr><ul><li><strong>s</strong> <em>e</em> <b>b</b> <i>i</i> <u>u</u> <s>s</s></li></ul><ol><li>1</li></ol><ol start="3"><li>3</li></ol>' +
      '<blockquote>q</blockquote><pre><code>c</code></pre><figure><img src="https://cdn.example/i.png" alt="A" title="T" width="10" height="5" loading="lazy"><figcaption>f</figcaption></figure>' +
      '<table><thead><tr><th scope="col" colspan="2" rowspan="1">h</th></tr></thead><tbody><tr><td colspan="2" rowspan="1">d</td></tr></tbody></table>';
    expect(sanitize(html)).toBe(html.replace('loading="lazy">', 'loading="lazy" />').replace('<br>', '<br />').replace('<hr>', '<hr />'));
  });

  it.each(both)('%s: removes everything that runs, loads or asks for input; script and style go with what they hold', (_, sanitize) => {
    expect(
      sanitize(
        '<script>alert(1)</script><style>*{}</style><noscript>n</noscript><iframe src="https://evil.example"></iframe><object data="x"></object><embed src="x">' +
          '<svg onload="alert(1)"><circle/></svg><math></math><form action="/x"><input name="q"><button>b</button></form><textarea>t</textarea>',
      ),
    ).toBe('nb'); // other text stays, as text
  });

  it.each(both)('%s: keeps no event handler, style, class or id', (_, sanitize) => {
    expect(sanitize('<p onclick="x()" style="color:red" class="c" id="i">t</p>')).toBe('<p>t</p>');
  });

  it.each(both)('%s: drops link addresses that run script, however spelled', (_, sanitize) => {
    for (const href of [
      'javascript:alert(1)',
      '&#106;avascript:alert(1)',
      ' javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>x</script>',
      'vbscript:x',
    ])
      expect(sanitize(`<a href="${href}">x</a>`), href).not.toContain('href');
  });

  it.each(both)('%s: keeps mailto: and tel: links', (_, sanitize) => {
    expect(sanitize('<a href="mailto:a@example.com">m</a>')).toContain('href="mailto:a@example.com"');
    expect(sanitize('<a href="tel:+15551234567">t</a>')).toContain('href="tel:+15551234567"');
  });

  it.each(both)('%s: loads images over https only; an image left without an address goes whole', (_, sanitize) => {
    expect(sanitize('<p>x</p><img src="https://cdn.example/ok.png" onerror="a()">')).toBe('<p>x</p><img src="https://cdn.example/ok.png" />');
    for (const img of [
      '<img src="http://cdn.example/i.png">',
      '<img src="data:image/png;base64,AAA">',
      '<img src="javascript:alert(1)">',
      '<img>',
      '<img src="">',
      '<img src="  ">',
    ])
      expect(sanitize(`<p>x</p>${img}`), img).toBe('<p>x</p>');
  });

  it.each(both)('%s: reads a lazy image address from data-src', (_, sanitize) => {
    expect(sanitize('<img data-src="https://cdn.example/lazy.png" alt="">')).toBe('<img alt="" src="https://cdn.example/lazy.png" />');
    expect(sanitize('<img src="" data-src="https://cdn.example/lazy.png">')).toBe('<img src="https://cdn.example/lazy.png" />');
  });

  it.each(both)('%s: clamps heading levels to h2-h4 (the page has its own h1)', (_, sanitize) => {
    expect(sanitize('<h1>One</h1><h5>Five</h5><h6>Six</h6>')).toBe('<h2>One</h2><h4>Five</h4><h4>Six</h4>');
  });
});

describe('sanitizeArticleHtml: the firm’s own articles', () => {
  it('keeps relative addresses: they point into this site', () => {
    expect(sanitizeArticleHtml('<a href="/contact">c</a><img src="/images/office.jpg">')).toBe('<a href="/contact">c</a><img src="/images/office.jpg" />');
  });

  it('refuses protocol-relative addresses (another host, unannounced)', () => {
    expect(sanitizeArticleHtml('<a href="//evil.example/x">x</a>')).toBe('<a>x</a>');
  });

  it('keeps a link as written, and gives one that opens a new window rel="noopener noreferrer", whatever its spelling', () => {
    expect(sanitizeArticleHtml('<a href="https://x.example" title="T" rel="author">t</a>')).toBe('<a href="https://x.example" title="T" rel="author">t</a>');
    expect(sanitizeArticleHtml('<a href="https://x.example" target="_blank" rel="opener">t</a>')).toBe(
      '<a href="https://x.example" target="_blank" rel="noopener noreferrer">t</a>',
    );
    // Before the one policy, only the exact "_blank" got the rel: "_BLANK" and named windows kept their opener.
    for (const target of ['_BLANK', 'preview'])
      expect(sanitizeArticleHtml(`<a href="https://x.example" target="${target}">t</a>`)).toBe(
        `<a href="https://x.example" target="${target}" rel="noopener noreferrer">t</a>`,
      );
    expect(sanitizeArticleHtml('<a href="/a" target="_self">t</a>')).toBe('<a href="/a" target="_self">t</a>');
  });
});

describe('sanitizeArticleHtml: HTML another site published', () => {
  it('resolves links and images against that site, dropping what does not resolve', () => {
    expect(fromElsewhere('<a href="/a">a</a><a href="ftp://x.example/f">f</a><img src="i.png">')).toBe(
      '<a href="https://news.example.com/a" rel="noopener noreferrer nofollow" target="_blank">a</a>' +
        '<a rel="noopener noreferrer nofollow" target="_blank">f</a><img src="https://news.example.com/posts/i.png" />',
    );
  });

  it('opens every link in a new tab, nofollow, whatever the source asked, keeping only its address and title', () => {
    expect(fromElsewhere('<a href="https://x.example/" title="T" target="_self" rel="opener" data-x="1">t</a>')).toBe(
      '<a href="https://x.example/" title="T" rel="noopener noreferrer nofollow" target="_blank">t</a>',
    );
    expect(fromElsewhere('<a href=" mailto:a@example.com ">m</a>')).toBe(
      '<a href="mailto:a@example.com" rel="noopener noreferrer nofollow" target="_blank">m</a>',
    );
  });

  it('still loads images over https only, after resolving', () => {
    expect(fromElsewhere('<p>x</p><img src="http://insecure.example/i.png">')).toBe('<p>x</p>');
  });
});
