/**
 * Public content changed: services announce it after a successful write, and whatever keeps public
 * pages fresh (the page republisher, the CDN purger) listens. Listeners must not throw into the request.
 *
 * One process hears its own announcements at once. Containers sharing a PostgreSQL database also
 * hear each other's (api/content-bus.ts): an announcement is handed to the relays, which carry it
 * to the other containers, where it arrives through `deliver` (heard there, never relayed again).
 */
/** 'site': everything may have changed (a restore, direct database edits): republish it all. */
/** 'booking-rules': the firm's availability (decision 032): every container drops the rules it keeps. */
export type ContentTopic =
  | 'blog-posts'
  | 'testimonials'
  | 'external-reviews'
  | 'themes'
  | 'component-visibility'
  | 'external-articles'
  | 'booking-rules'
  | 'site';

export const contentTopics: readonly ContentTopic[] = [
  'blog-posts',
  'testimonials',
  'external-reviews',
  'themes',
  'component-visibility',
  'external-articles',
  'booking-rules',
  'site',
];

export interface ContentChange {
  topic: ContentTopic;
  /** Slugs or keys the change touched, when known (a post's old and new slug). */
  keys?: string[];
}

export type ContentListener = (change: ContentChange) => void | Promise<void>;

export interface ContentEvents {
  /** A change made here: heard here and relayed to the other containers. */
  changed(change: ContentChange): void;
  /** A change another container made: heard here only. Resolves when every listener is done. */
  deliver(change: ContentChange): Promise<void>;
  subscribe(listener: ContentListener): () => void;
  /** Something that carries this process's changes elsewhere (api/content-bus.ts). */
  relay(relay: ContentListener): () => void;
}

export function createContentEvents(onListenerError: (err: unknown) => void = () => {}): ContentEvents {
  const listeners = new Set<ContentListener>();
  const relays = new Set<ContentListener>();
  const notify = (targets: Set<ContentListener>, change: ContentChange) =>
    [...targets].map((listener) => {
      try {
        return Promise.resolve(listener(change)).catch(onListenerError);
      } catch (err) {
        onListenerError(err);
        return Promise.resolve();
      }
    });
  return {
    changed(change) {
      void notify(listeners, change);
      void notify(relays, change);
    },
    async deliver(change) {
      await Promise.all(notify(listeners, change));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    relay(relay) {
      relays.add(relay);
      return () => relays.delete(relay);
    },
  };
}
