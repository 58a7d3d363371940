import { CONDITIONS } from '@tv-shop/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FilterIcon, SearchIcon } from '@/components/ui/icons';
import { heldRange, priceProblem } from './price-range';
import { BROWSE, type ProductSearchState, type SearchSort } from './search-params';

/** How long typing may pause before the search runs. */
export const TYPING_DEBOUNCE_MS = 300;

const SORT_OPTIONS: { value: SearchSort; label: string }[] = [
  { value: 'newest', label: 'Newest first' },
  { value: 'price_asc', label: 'Price: low to high' },
  { value: 'price_desc', label: 'Price: high to low' },
];

type Typed = Pick<ProductSearchState, 'q' | 'location' | 'minPrice' | 'maxPrice'>;
const typedOf = ({ q, location, minPrice, maxPrice }: ProductSearchState): Typed => ({ q, location, minPrice, maxPrice });
const sameTyped = (a: Typed, b: Typed) =>
  a.q === b.q && a.location === b.location && a.minPrice === b.minPrice && a.maxPrice === b.maxPrice;
const problemOf = (typed: Typed) => priceProblem(typed.minPrice, typed.maxPrice);

/** How many filters (besides the search box) narrow the search; a price range counts once. */
function activeFilters(value: ProductSearchState, draft: Typed, withBrand: boolean): number {
  return [
    withBrand && value.category !== BROWSE.category,
    value.condition !== BROWSE.condition,
    draft.minPrice.trim() !== '' || draft.maxPrice.trim() !== '',
    draft.location.trim() !== '',
    value.sort !== BROWSE.sort,
    value.sold !== BROWSE.sold,
  ].filter(Boolean).length;
}

interface SearchFiltersProps {
  value: ProductSearchState;
  onChange: (patch: Partial<ProductSearchState>) => void;
  /** The brands to pick from; left out where the page fixes the brand (a category page). */
  brands?: { id: string; name: string }[];
}

/**
 * The search box and filters. Text boxes keep what is typed and send it after a short pause;
 * selects and the switch send at once. What the URL says (back, forward, a shared link) wins.
 * Prices the server would refuse are not sent: the message under them says what to fix.
 * On a phone only the search box shows, and a Filters button opens the rest (styles.css).
 * Native controls in the shop's look (ui.css): the list pages paint without antd (ADR 0043).
 */
export function SearchFilters({ value, onChange, brands }: SearchFiltersProps) {
  const [draft, setDraft] = useState<Typed>(() => typedOf(value));
  const sent = useRef<Typed>(typedOf(value));
  // The draft once typing paused: a price range is judged then, not at every key.
  const [settled, setSettled] = useState<Typed>(() => typedOf(value));
  // A link with prices to fix opens the filters where the message is.
  const [open, setOpen] = useState(() => problemOf(typedOf(value)) !== null);
  const moreId = useId();
  const priceErrorId = useId();
  const fromUrl = typedOf(value);
  const fromUrlKey = JSON.stringify(fromUrl);

  // Back/forward or a link changed the search: show it, dropping what was being typed.
  useEffect(() => {
    const next = JSON.parse(fromUrlKey) as Typed;
    if (sameTyped(next, sent.current)) return;
    sent.current = next;
    setDraft(next);
  }, [fromUrlKey]);

  // The pause may outlast a render (a select changed meanwhile): send through the latest onChange.
  const latestOnChange = useRef(onChange);
  useEffect(() => {
    latestOnChange.current = onChange;
  });
  const send = (typed: Typed) => {
    sent.current = typed;
    latestOnChange.current(typed);
  };
  /**
   * What of the draft can go: a price to fix stays as last sent (and out of the URL) until fixed,
   * while the other box goes as typed (a max cleared beside a wrong min is cleared), unless the
   * two would then make a range the server refuses: then both stay as sent.
   */
  const sendable = (typed: Typed): Typed => {
    const problem = problemOf(typed);
    if (!problem) return typed;
    const kept = { ...typed };
    for (const field of problem.fields) kept[field] = sent.current[field];
    return problemOf(kept) ? { ...typed, minPrice: sent.current.minPrice, maxPrice: sent.current.maxPrice } : kept;
  };
  useEffect(() => {
    const timer = setTimeout(() => {
      setSettled(draft);
      const next = sendable(draft);
      if (!sameTyped(next, sent.current)) send(next);
    }, TYPING_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // Only a new draft restarts the pause.
  }, [draft]);

  const type = (field: keyof Typed) => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [field]: event.target.value }));
  const filtered = JSON.stringify({ ...value, ...draft, ...(brands ? {} : { category: '' }) }) !== JSON.stringify(BROWSE);
  // Shown once typing paused on a wrong range, and gone as soon as it is fixed.
  const problem = problemOf(settled) ? problemOf(draft) : null;
  const priceInvalid = (field: 'minPrice' | 'maxPrice') => (problem?.fields.includes(field) ? true : undefined);
  const active = activeFilters(value, draft, !!brands);

  // On a phone the fields sit two to a row: the order keeps them paired with no gaps.
  const condition = (
    <div className="search-filters__field">
      <label htmlFor="search-condition">Condition</label>
      <select
        id="search-condition"
        className="field-select"
        value={value.condition}
        onChange={(e) => onChange({ condition: e.target.value as ProductSearchState['condition'] })}
      >
        <option value="">Any condition</option>
        {CONDITIONS.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <div className={`search-filters${open ? ' search-filters--open' : ''}`} role="search" aria-label="Search TVs">
      <div className="search-filters__field search-filters__field--wide">
        <label htmlFor="search-q">Search</label>
        <span className="field-affix">
          <SearchIcon />
          <input
            id="search-q"
            className="field-input"
            type="search"
            value={draft.q}
            onChange={type('q')}
            onKeyDown={(e) => {
              // Enter that ends an input method's composition (Bengali, say) is not a search.
              if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
              const next = sendable(draft);
              if (!sameTyped(next, sent.current)) send(next);
            }}
            placeholder="Brand, model, size..."
            maxLength={200}
          />
        </span>
      </div>
      <Button
        className="search-filters__toggle"
        icon={<FilterIcon />}
        aria-expanded={open}
        aria-controls={moreId}
        onClick={() => setOpen((o) => !o)}
      >
        {active > 0 ? `Filters (${active})` : 'Filters'}
      </Button>
      <div className="search-filters__more" id={moreId}>
        {brands ? (
          <div className="search-filters__field">
            <label htmlFor="search-brand">Brand</label>
            <select
              id="search-brand"
              className="field-select"
              value={value.category}
              onChange={(e) => onChange({ category: e.target.value })}
            >
              <option value="">All brands</option>
              {brands.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {brands ? condition : null}
        <div className="search-filters__field search-filters__price">
          <div>
            <label htmlFor="search-min-price">Min price (TK)</label>
            {/* Text, not number: a number box empties itself on "25k", and the message could not say why. */}
            <input
              id="search-min-price"
              className="field-input"
              inputMode="decimal"
              autoComplete="off"
              value={draft.minPrice}
              onChange={type('minPrice')}
              aria-invalid={priceInvalid('minPrice')}
              aria-describedby={priceInvalid('minPrice') ? priceErrorId : undefined}
            />
          </div>
          <div>
            <label htmlFor="search-max-price">Max price (TK)</label>
            <input
              id="search-max-price"
              className="field-input"
              inputMode="decimal"
              autoComplete="off"
              value={draft.maxPrice}
              onChange={type('maxPrice')}
              aria-invalid={priceInvalid('maxPrice')}
              aria-describedby={priceInvalid('maxPrice') ? priceErrorId : undefined}
            />
          </div>
          {problem ? (
            <p className="search-filters__error" id={priceErrorId} role="alert">
              {problem.message}
              {/* What the list shows meanwhile: the range last searched by (none when a link's range is itself to fix). */}
              {priceProblem(value.minPrice, value.maxPrice) ? null : `. ${heldRange(value.minPrice, value.maxPrice)}`}
            </p>
          ) : null}
        </div>
        {brands ? null : condition}
        <div className="search-filters__field search-filters__field--phone-wide">
          <label htmlFor="search-location">Location</label>
          <input
            id="search-location"
            className="field-input"
            type="search"
            value={draft.location}
            onChange={type('location')}
            placeholder="e.g. Dhaka"
            maxLength={100}
          />
        </div>
        {/* A row of its own on a phone: "Price: high to low" is wider than half of one. */}
        <div className="search-filters__field search-filters__field--phone-wide">
          <label htmlFor="search-sort">Sort by</label>
          <select
            id="search-sort"
            className="field-select"
            value={value.sort}
            onChange={(e) => onChange({ sort: e.target.value as SearchSort })}
          >
            {SORT_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        <div className="search-filters__field search-filters__switch">
          <button
            id="search-sold"
            className="switch"
            type="button"
            role="switch"
            aria-checked={value.sold !== 'false'}
            onClick={() => onChange({ sold: value.sold !== 'false' ? 'false' : 'any' })}
          />
          <label htmlFor="search-sold">Show sold</label>
        </div>
      </div>
      {filtered ? (
        <Button
          className="search-filters__clear"
          onClick={() => {
            const typed = typedOf(BROWSE);
            sent.current = typed;
            setDraft(typed);
            onChange({ ...BROWSE });
          }}
        >
          Clear search
        </Button>
      ) : null}
    </div>
  );
}
