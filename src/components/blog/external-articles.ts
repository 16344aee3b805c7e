/** The slim, display-ready shape of an external article that pages embed (SPEC §9: excerpt cut at 200). */
import type { PublicExternalArticle } from '../../shared/public-api.ts';
import { plainText, safeHttpUrl, truncate } from './format.ts';

export interface ExternalArticleView {
  id: string;
  title: string;
  url: string;
  excerpt: string;
  author: string | null;
  publishedAt: string | null;
  imageUrl: string | null;
  sourceName: string;
}

/** Feed data is untrusted: plain text only, http(s) links only; an article with no usable link is left out. */
export function toExternalArticleViews(articles: readonly PublicExternalArticle[]): ExternalArticleView[] {
  return articles.flatMap((a) => {
    const url = safeHttpUrl(a.url);
    if (!url || !a.isVisible) return [];
    return [
      {
        id: a.id,
        title: plainText(a.title) || url,
        url,
        excerpt: truncate(plainText(a.excerpt)),
        author: plainText(a.author) || null,
        publishedAt: a.publishedAt,
        imageUrl: safeHttpUrl(a.imageUrl),
        sourceName: plainText(a.sourceName),
      },
    ];
  });
}
