/**
 * What the optional configuration of a blog source can hold, per type: the keys the feeds fetcher
 * reads (api/blog-sources/feed-parsers.ts parseSourceConfig). Unknown keys are ignored there.
 */
import { Info } from 'lucide-react';
import type { ReactNode } from 'react';
import type { BlogSourceType } from './integrations.ts';

const Key = ({ children }: { children: ReactNode }) => <code className="break-all rounded bg-muted px-1 py-0.5 font-mono text-[0.8125rem]">{children}</code>;

const byType: Record<BlogSourceType, ReactNode> = {
  rss: <>An RSS 2.0, RSS 1.0 or Atom feed. No configuration is needed.</>,
  api: (
    <>
      An address answering with a JSON list of articles (JSON Feed too). <Key>itemsPath</Key> names where the list is (<Key>{'"data.posts"'}</Key>), and{' '}
      <Key>fields</Key> maps article fields to paths (<Key>{'{"title": "headline", "url": "link"}'}</Key>) when the names differ.
    </>
  ),
  scraper: (
    <>
      A web page listing articles. <Key>selectors</Key> gives the CSS selectors to read: <Key>item</Key> (default <Key>article</Key>), and inside it{' '}
      <Key>title</Key>, <Key>link</Key>, <Key>excerpt</Key>, <Key>date</Key>, <Key>image</Key>, <Key>author</Key>.
    </>
  ),
};

export function BlogSourceTypeHelp({ id, type }: { id: string; type: BlogSourceType }) {
  return (
    <div id={id} className="flex gap-2 rounded-md border border-border bg-muted/40 p-3 text-sm">
      <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
      <div className="min-w-0 space-y-1 break-words">
        <p>{byType[type]}</p>
        <p>
          Any type: <Key>headers</Key> to send (<Key>{'{"Authorization": "..."}'}</Key>), or <Key>apiKey</Key> with <Key>apiKeyHeader</Key> (default X-API-Key).
          Secrets are stored, and never shown again in full.
        </p>
      </div>
    </div>
  );
}
