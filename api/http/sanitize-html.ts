/**
 * The one policy for article HTML the site stores and may show: formatting, never script (DOMAIN.md
 * Publishing: stored XSS). Sanitised on write, so every reader of the
 * database (pages, feeds, the migration) gets safe HTML.
 *
 * One option, for HTML another site published (`resolveExternalUrl`): its relative addresses point
 * at that site, not this one, and its links are not the firm's, so each opens in a new tab marked
 * nofollow. Everything else is the same for both.
 */
import sanitizeHtml from 'sanitize-html';

export interface ArticleHtmlOptions {
  /**
   * For HTML published by another site: one of its link or image addresses as an absolute http(s)
   * URL on that site, or null to drop it. Without it (the firm's own writing), relative addresses
   * stay relative: they point into this site.
   */
  resolveExternalUrl?: (address: string) => string | null;
}

/** Where a link opens a new window (any target but these), the new page must not get this one's window or address. */
const SAME_WINDOW = /^_(self|parent|top)$/i;
const EXTERNAL_REL = 'noopener noreferrer nofollow';

function policy({ resolveExternalUrl: resolve }: ArticleHtmlOptions): sanitizeHtml.IOptions {
  return {
    // The body sits under the page's own h1, and the prose styles know h2-h4: other levels are
    // clamped below (not flattened into the text around them).
    allowedTags: [
      'h2',
      'h3',
      'h4',
      'p',
      'br',
      'hr',
      'ul',
      'ol',
      'li',
      'strong',
      'em',
      'b',
      'i',
      'u',
      's',
      'a',
      'blockquote',
      'code',
      'pre',
      'figure',
      'figcaption',
      'img',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
    ],
    allowedAttributes: {
      a: ['href', 'title', 'target', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
      // A numbered list that goes on after a paragraph (the post editor writes it).
      ol: ['start'],
      th: ['scope', 'colspan', 'rowspan'],
      td: ['colspan', 'rowspan'],
    },
    allowedSchemes: ['https', 'http', 'mailto', 'tel'],
    // An image loads with the page: never over plain http, never a data: or script address.
    allowedSchemesByTag: { img: ['https'] },
    allowProtocolRelative: false,
    transformTags: {
      h1: 'h2',
      h5: 'h4',
      h6: 'h4',
      a: (tagName, attribs) => {
        if (!resolve) {
          const opensWindow = attribs.target !== undefined && !SAME_WINDOW.test(attribs.target);
          return { tagName, attribs: opensWindow ? { ...attribs, rel: 'noopener noreferrer' } : attribs };
        }
        const raw = attribs.href?.trim();
        const href = raw && (/^(mailto|tel):/i.test(raw) ? raw : resolve(raw));
        return { tagName, attribs: { ...(href ? { href } : {}), ...(attribs.title ? { title: attribs.title } : {}), rel: EXTERNAL_REL, target: '_blank' } };
      },
      // Lazy-loading markup keeps the address in data-src.
      img: (tagName, attribs) => {
        const raw = (attribs.src || attribs['data-src'])?.trim();
        const src = raw && (resolve ? resolve(raw) : raw);
        return { tagName, attribs: { ...attribs, src: src ?? '' } };
      },
    },
    // An image left without an address (none, data:, http:...) shows nothing: it goes.
    exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  };
}

const ownPolicy = policy({});

/** Article HTML made safe to store and show (see the header for the rules). */
export function sanitizeArticleHtml(html: string, options?: ArticleHtmlOptions): string {
  return sanitizeHtml(html, options?.resolveExternalUrl ? policy(options) : ownPolicy);
}
