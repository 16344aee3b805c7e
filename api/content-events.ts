/**
 * Public content changed: services announce it after a successful write, and whatever keeps public
 * pages fresh (the page republisher, caches) listens. Listeners must not throw into the request.
 */
/** 'site': everything may have changed (a restore, direct database edits): republish it all. */
export type ContentTopic = 'blog-posts' | 'testimonials' | 'themes' | 'component-visibility' | 'external-articles' | 'site';

export interface ContentChange {
  topic: ContentTopic;
  /** Slugs or keys the change touched, when known (a post's old and new slug). */
  keys?: string[];
}

export type ContentListener = (change: ContentChange) => void | Promise<void>;

export interface ContentEvents {
  changed(change: ContentChange): void;
  subscribe(listener: ContentListener): () => void;
}

export function createContentEvents(onListenerError: (err: unknown) => void = () => {}): ContentEvents {
  const listeners = new Set<ContentListener>();
  return {
    changed(change) {
      for (const listener of listeners) {
        try {
          Promise.resolve(listener(change)).catch(onListenerError);
        } catch (err) {
          onListenerError(err);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
