/**
 * What a hidden component takes with it (SPEC §3 catalogue; decision 028). The pages carry their
 * components between markers, HTML comments the build keeps (`Hideable.astro`):
 *
 *   <!--component:probate_calculator--> … <!--/component:probate_calculator-->   gone while it is hidden
 *   <!--unless:probate_calculator--> … <!--/unless:probate_calculator-->         there only while it is hidden
 *
 * and the server serves every page through `withoutHidden`, so a hidden component is not in the HTML
 * (a crawler reads no hidden testimonial), whatever the page and however it was made (prerendered or
 * published). A link to a hidden component's own page is unwrapped wherever it is, the articles an
 * admin writes included; the page itself answers 404 (`hiddenPageOf`).
 *
 * Browser-safe and dependency-free: the build's components and the server both import it.
 */
import type { ComponentKey } from './constants.ts';

export type MarkerKind = 'component' | 'unless';

export const openMarker = (kind: MarkerKind, key: ComponentKey) => `<!--${kind}:${key}-->`;
export const closeMarker = (kind: MarkerKind, key: ComponentKey) => `<!--/${kind}:${key}-->`;

/**
 * The pages that belong to one component: while it is hidden they answer 404. The calculator's page
 * stays useful (it says the calculator is unavailable and offers the contact form); the others answer
 * the site's 404 page.
 */
export const componentPages: readonly { component: ComponentKey; path: RegExp; keepsPage: boolean }[] = [
  { component: 'probate_calculator', path: /^\/probate-calculator(?:\/|\/index\.html)?$/, keepsPage: true },
  { component: 'external_blog_articles', path: /^\/external-articles\/?$/, keepsPage: false },
  // The firm's articles: each article, its link-preview card, the later list pages and the feed. /blog
  // itself stays (the news from elsewhere and the newsletter live there too).
  { component: 'blog_articles', path: /^\/(?:blog\/[^/]+(?:\/\d+)?|og\/blog\/[^/]+\.png|rss\.xml)\/?$/, keepsPage: false },
];

/** The hidden component whose page `pathname` is, or null. */
export function hiddenPageOf(pathname: string, hidden: ReadonlySet<string>): { component: ComponentKey; keepsPage: boolean } | null {
  for (const page of componentPages) if (hidden.has(page.component) && page.path.test(pathname)) return page;
  return null;
}

const marker = /<!--(\/?)(component|unless):([a-z][a-z0-9_]*)-->/g;
/**
 * What a cut block gives back: Astro writes its island runtime (an inline script and a style) once, before
 * a page's first island, and a cut first island would take the runtime of the islands after it. Only
 * plain scripts and styles: structured data (`application/ld+json`) describes the component and goes.
 */
const runtime = /<script(?![^>]*\btype=)[^>]*>[\s\S]*?<\/script>|<style\b[^>]*>[\s\S]*?<\/style>/g;
/** An anchor, to its first `</a>` (anchors do not nest in HTML). */
const anchor = /<a\b([^>]*)>([\s\S]*?)<\/a>/gi;
const hrefOf = /\bhref="([^"]*)"/i;

/** The path an href names on this site, or null (another site, a fragment, mail, a phone number). */
function sitePath(href: string, origin: string | undefined): string | null {
  const decoded = href.replace(/&amp;/g, '&');
  let rest: string;
  if (decoded.startsWith('/') && !decoded.startsWith('//')) rest = decoded;
  else if (origin && (decoded === origin || decoded.startsWith(`${origin}/`))) rest = decoded.slice(origin.length) || '/';
  else return null;
  return rest.replace(/[?#].*$/, '');
}

/**
 * `text` (a page, a feed, a sitemap) as visitors get it while the components in `hidden` are hidden:
 * the hidden components' blocks cut out, the `unless` blocks of the visible ones cut out, the markers
 * removed, and links to a hidden component's page unwrapped to their text. `origin` is the site's own
 * (SITE_URL), so absolute links to it count too. A marker left open (a build fault the tests look
 * for) cuts nothing: its block stays.
 */
export function withoutHidden(text: string, hidden: ReadonlySet<string>, origin?: string): string {
  let out = text;
  if (out.includes('<!--component:') || out.includes('<!--unless:')) out = cutBlocks(out, hidden);
  if (hidden.size > 0 && componentPages.some((p) => hidden.has(p.component))) {
    out = out.replace(anchor, (whole, attributes: string, inner: string) => {
      const href = hrefOf.exec(attributes)?.[1];
      const path = href === undefined ? null : sitePath(href, origin);
      return path !== null && hiddenPageOf(path, hidden) ? inner : whole;
    });
  }
  return out;
}

function cutBlocks(text: string, hidden: ReadonlySet<string>): string {
  let out = '';
  let from = 0;
  /** The block being cut: its closing marker, and where the cut began (kept if it never closes). */
  let cutting: { close: string; start: number } | null = null;
  for (const m of text.matchAll(marker)) {
    const [whole, slash, kind, key] = m as unknown as [string, string, MarkerKind, string];
    const at = m.index;
    if (cutting) {
      if (whole === cutting.close) {
        out += text.slice(cutting.start, at).match(runtime)?.join('') ?? '';
        cutting = null;
        from = at + whole.length;
      }
      continue;
    }
    out += text.slice(from, at);
    from = at + whole.length;
    if (slash) continue;
    const cut = kind === 'component' ? hidden.has(key) : !hidden.has(key);
    if (cut) cutting = { close: `<!--/${kind}:${key}-->`, start: at };
  }
  // Never closed: what followed the marker stays, rather than the rest of the page being lost.
  if (cutting) return out + text.slice(cutting.start).replace(marker, '');
  return out + text.slice(from);
}
