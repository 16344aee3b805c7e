/**
 * A text search plus one select filter over a list embedded in the page, with the count line and
 * the SPEC §8 'No Articles Found' empty state with Clear Filters. Used by the blog's article list
 * (category filter) and the external articles page (source filter).
 *
 * When the page embeds one page of a longer list (the blog's pages), `loadAll` fetches the whole list
 * the first time the visitor searches or filters, so matches come from every page; until it arrives
 * (or if it cannot) the matches on this page are shown, and the count line says so.
 */
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { buttonClass } from '../ui/button-class.ts';
import { typedBeforeHydration } from '../ui/typed-before-hydration.ts';

export const ALL = 'all';

interface SearchFilterProps<T> {
  items: T[];
  /** The text a search matches (every word must appear). */
  text: (item: T) => string;
  /** The value the select filters on. */
  filterValue: (item: T) => string;
  label: string;
  searchLabel: string;
  filterLabel: string;
  allLabel: string;
  options: { value: string; label: string }[];
  /** Tailwind grid columns of the form at sm and up. */
  columns: string;
  emptyHint: string;
  children: (visible: T[]) => ReactNode;
  /** How many items the whole list has, when `items` is one page of it. */
  total?: number;
  /** The whole list, when `items` is one page of it. */
  loadAll?: () => Promise<T[]>;
}

/** Matches shown at once (a search over every article may match thousands); more on request. */
const SHOWN = 48;

type Whole<T> = { state: 'page' } | { state: 'loading' } | { state: 'failed' } | { state: 'all'; items: T[] };

export function SearchFilter<T>(props: SearchFilterProps<T>) {
  const { text, filterValue, options, children, loadAll } = props;
  const total = props.total ?? props.items.length;
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState(ALL);
  const searchRef = useRef<HTMLInputElement>(null);
  const id = useId();
  // An island that hydrates late (client:interaction) takes over what was typed or chosen before it did.
  const [typed] = useState(() => typedBeforeHydration(`${id}-form`));
  useLayoutEffect(() => {
    if (typeof typed.q === 'string') setQuery(typed.q);
    if (typeof typed.filter === 'string') setFilter(typed.filter);
  }, [typed]);
  const filtered = query.trim() !== '' || filter !== ALL;
  const partial = loadAll !== undefined && total > props.items.length;
  const [whole, setWhole] = useState<Whole<T>>({ state: 'page' });
  // 'Show more' counts for one search: a new one starts from the first matches. The unfiltered list
  // is the page's own, shown whole.
  const search = `${filter}\n${query}`;
  const [more, setMore] = useState({ search, times: 0 });
  const shown = filtered ? SHOWN * (1 + (more.search === search ? more.times : 0)) : Number.POSITIVE_INFINITY;

  useEffect(() => {
    if (!filtered || !partial || !loadAll || whole.state !== 'page') return;
    setWhole({ state: 'loading' });
    loadAll().then(
      (all) => setWhole({ state: 'all', items: all }),
      () => setWhole({ state: 'failed' }),
    );
  }, [filtered, partial, loadAll, whole.state]);

  const items = whole.state === 'all' ? whole.items : props.items;
  const visible = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return items.filter((item) => {
      if (filter !== ALL && filterValue(item) !== filter) return false;
      const haystack = text(item).toLowerCase();
      return words.every((w) => haystack.includes(w));
    });
  }, [items, query, filter, text, filterValue]);

  const clear = () => {
    setQuery('');
    setFilter(ALL);
    searchRef.current?.focus();
  };

  return (
    <div>
      <form
        id={`${id}-form`}
        role="search"
        aria-label={props.label}
        className={`grid gap-4 ${props.columns}`}
        onSubmit={(e) => {
          // The matches are already shown: Enter or Search only puts the phone's keyboard away.
          e.preventDefault();
          searchRef.current?.blur();
        }}
      >
        <div>
          <label htmlFor={`${id}-q`} className="mb-1 block text-sm font-medium">
            {props.searchLabel}
          </label>
          <input
            ref={searchRef}
            id={`${id}-q`}
            name="q"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search by title, topic or author"
            autoComplete="off"
            className="min-h-11 w-full rounded-lg border border-input bg-background px-3 py-2 text-base placeholder:text-muted-foreground"
          />
        </div>
        <div>
          <label htmlFor={`${id}-f`} className="mb-1 block text-sm font-medium">
            {props.filterLabel}
          </label>
          <select
            id={`${id}-f`}
            name="filter"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            className="min-h-11 w-full rounded-lg border border-input bg-background px-3 py-2 text-base"
          >
            <option value={ALL}>{props.allLabel}</option>
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        {/* The list follows each keystroke; this is the form's explicit action (WCAG H32), shown when focused. */}
        <button type="submit" className={buttonClass('outline-primary', 'lg', 'sr-only focus:not-sr-only sm:col-span-full sm:justify-self-start')}>
          Search
        </button>
      </form>

      <p className="mt-4 text-sm text-muted-foreground" role="status" aria-live="polite">
        {countLine(filtered, visible.length, whole.state === 'all' ? whole.items.length : total, partial ? whole.state : 'all')}
      </p>

      <div className="mt-4">
        {visible.length > 0 ? (
          <>
            {children(visible.slice(0, shown))}
            {visible.length > shown && (
              <div className="mt-8 text-center">
                <button
                  type="button"
                  onClick={() => setMore({ search, times: (more.search === search ? more.times : 0) + 1 })}
                  className={buttonClass('outline-primary', 'lg')}
                >
                  Show more results<span className="sr-only"> ({visible.length - shown} more)</span>
                </button>
              </div>
            )}
          </>
        ) : partial && filtered && (whole.state === 'page' || whole.state === 'loading') ? null : (
          <div className="rounded-lg border border-dashed border-border px-6 py-12 text-center">
            <h3 className="text-lg font-semibold">No Articles Found</h3>
            <p className="mt-2 text-sm text-muted-foreground">{props.emptyHint}</p>
            <button type="button" onClick={clear} className={buttonClass('outline-primary', 'lg', 'mt-6')}>
              Clear Filters
            </button>
          </div>
        )}
      </div>
    </div>
  );
}

function countLine(filtered: boolean, shown: number, total: number, whole: Whole<unknown>['state']): string {
  if (!filtered) return `${total} articles`;
  if (whole === 'loading' || whole === 'page') return `Searching all ${total} articles…`;
  if (whole === 'failed') return `${shown} articles on this page shown (the other pages could not be searched; please try again later)`;
  return `${shown} of ${total} articles shown`;
}
