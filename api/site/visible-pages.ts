/**
 * Every page as visitors get it while an admin hides components (SPEC §3 catalogue; decision 028):
 * the hidden components cut out of the HTML, links to their pages unwrapped, and their own pages
 * answering 404 (src/shared/hidden-components.ts says what each component takes with it). It applies
 * to every page the site sends, prerendered or published, so no page can be forgotten.
 *
 * A page's visible form is made once per page and per change of the hidden set, and compressed like a
 * published page (quick levels at once, the best ones in the background); a page with nothing to cut
 * is sent as it is. The hidden set is read from the public API and read again when the
 * `component-visibility` topic changes (on every container, through the content bus).
 */
import { hiddenPageOf, withoutHidden } from '../../src/shared/hidden-components.ts';
import type { ComponentVisibility } from '../../src/shared/public-api.ts';
import type { Logger } from '../logger.ts';
import { compress, uncompressed, type Prepared } from './compressed.ts';

const cuttable = /^(text\/html|application\/xml|application\/rss\+xml)/;

export interface VisiblePages {
  /**
   * What to send at `pathname`, whose page `page` gives: that page without what is hidden; for a
   * hidden component's own page, a 404: the page with what stands in for it, or the site's 404 page
   * (`notFound`, without asking for the page at all).
   */
  of(pathname: string, page: () => Prepared | Promise<Prepared>, notFound: () => Promise<Prepared>): Promise<Prepared>;
  /** Reads the hidden set again (an admin changed it). */
  changed(): Promise<void>;
}

export function createVisiblePages(load: () => Promise<ComponentVisibility[]>, origin: string, log: Logger): VisiblePages {
  let hidden: Promise<ReadonlySet<string>> | null = null;
  /** The last set read, kept when a read fails: a failed read never shows what an admin hid. */
  let lastKnown: ReadonlySet<string> = new Set();
  let made = new WeakMap<Prepared, Promise<Prepared>>();
  let missing = new WeakMap<Prepared, Promise<Prepared>>();

  const hiddenSet = (): Promise<ReadonlySet<string>> => {
    if (hidden) return hidden;
    const reading: Promise<ReadonlySet<string>> = load().then(
      (rows) => {
        lastKnown = new Set(rows.filter((r) => !r.isVisible).map((r) => r.componentKey));
        return lastKnown;
      },
      (err: unknown) => {
        log.error('hidden components could not be read', { err: String(err) });
        if (hidden === reading) hidden = null; // the next page asks again
        return lastKnown;
      },
    );
    hidden = reading;
    return reading;
  };

  /** `page` with what `set` hides cut out, as `status`. */
  const cut = async (page: Prepared, set: ReadonlySet<string>, status: number): Promise<Prepared> => {
    if (!cuttable.test(page.type)) return page.status === status ? page : { ...page, status };
    const text = page.body.toString('utf8');
    const visible = withoutHidden(text, set, origin);
    if (visible === text && page.status === status) return page;
    return compress(uncompressed(status, page.type, Buffer.from(visible), page.cacheControl, page.headers));
  };

  const memo = (store: WeakMap<Prepared, Promise<Prepared>>, page: Prepared, make: () => Promise<Prepared>) => {
    let p = store.get(page);
    if (!p) {
      p = make();
      store.set(page, p);
      p.catch(() => store.delete(page));
    }
    return p;
  };

  return {
    async of(pathname, page, notFound) {
      // The forms made for the set read here: a change meanwhile starts new ones, never mixes them.
      const [forms, missingForms] = [made, missing];
      const set = await hiddenSet();
      const own = hiddenPageOf(pathname, set);
      const source = own && !own.keepsPage ? await notFound() : await page();
      if (own?.keepsPage) return memo(missingForms, source, () => cut(source, set, 404));
      return memo(forms, source, () => cut(source, set, source.status));
    },
    async changed() {
      hidden = null;
      made = new WeakMap();
      missing = new WeakMap();
      await hiddenSet();
    },
  };
}
