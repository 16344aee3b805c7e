/**
 * A text search plus one select filter over a list embedded in the page, with the count line and
 * the SPEC §8 'No Articles Found' empty state with Clear Filters. Used by the blog's article list
 * (category filter) and the external articles page (source filter).
 */
import { useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { buttonClass } from '../ui/button-class.ts';

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
}

export function SearchFilter<T>(props: SearchFilterProps<T>) {
  const { items, text, filterValue, options, children } = props;
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState(ALL);
  const searchRef = useRef<HTMLInputElement>(null);
  const id = useId();

  const visible = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return items.filter((item) => {
      if (filter !== ALL && filterValue(item) !== filter) return false;
      const haystack = text(item).toLowerCase();
      return words.every((w) => haystack.includes(w));
    });
  }, [items, query, filter, text, filterValue]);

  const filtered = query.trim() !== '' || filter !== ALL;
  const clear = () => {
    setQuery('');
    setFilter(ALL);
    searchRef.current?.focus();
  };

  return (
    <div>
      <form role="search" aria-label={props.label} className={`grid gap-4 ${props.columns}`} onSubmit={(e) => e.preventDefault()}>
        <div>
          <label htmlFor={`${id}-q`} className="mb-1 block text-sm font-medium">
            {props.searchLabel}
          </label>
          <input
            ref={searchRef}
            id={`${id}-q`}
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
      </form>

      <p className="mt-4 text-sm text-muted-foreground" role="status" aria-live="polite">
        {filtered ? `${visible.length} of ${items.length} articles shown` : `${items.length} articles`}
      </p>

      <div className="mt-4">
        {visible.length > 0 ? (
          children(visible)
        ) : (
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
