import { SearchOutlined } from '@ant-design/icons';
import { Button, Input, Select, Switch } from 'antd';
import { CONDITIONS } from '@tv-shop/contracts';
import { useEffect, useRef, useState } from 'react';
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

interface SearchFiltersProps {
  value: ProductSearchState;
  onChange: (patch: Partial<ProductSearchState>) => void;
  /** The brands to pick from; left out where the page fixes the brand (a category page). */
  brands?: { id: string; name: string }[];
}

/**
 * The search box and filters. Text boxes keep what is typed and send it after a short pause;
 * selects and the switch send at once. What the URL says (back, forward, a shared link) wins.
 */
export function SearchFilters({ value, onChange, brands }: SearchFiltersProps) {
  const [draft, setDraft] = useState<Typed>(() => typedOf(value));
  const sent = useRef<Typed>(typedOf(value));
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
  useEffect(() => {
    if (sameTyped(draft, sent.current)) return;
    const timer = setTimeout(() => send(draft), TYPING_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // Only a new draft restarts the pause.
  }, [draft]);

  const type = (field: keyof Typed) => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [field]: event.target.value }));
  const filtered = JSON.stringify({ ...value, ...draft, ...(brands ? {} : { category: '' }) }) !== JSON.stringify(BROWSE);

  // On a phone the fields sit two to a row: the order keeps them paired with no gaps.
  const condition = (
    <div className="search-filters__field">
      <label htmlFor="search-condition">Condition</label>
      <Select
        id="search-condition"
        value={value.condition}
        onChange={(condition: ProductSearchState['condition']) => onChange({ condition })}
        options={[{ value: '', label: 'Any condition' }, ...CONDITIONS.map((c) => ({ value: c, label: c }))]}
      />
    </div>
  );

  return (
    <div className="search-filters" role="search" aria-label="Search TVs">
      <div className="search-filters__field search-filters__field--wide">
        <label htmlFor="search-q">Search</label>
        <Input
          id="search-q"
          type="search"
          value={draft.q}
          onChange={type('q')}
          onPressEnter={() => send(draft)}
          placeholder="Brand, model, size..."
          prefix={<SearchOutlined aria-hidden />}
          allowClear
          maxLength={200}
        />
      </div>
      {brands ? (
        <div className="search-filters__field">
          <label htmlFor="search-brand">Brand</label>
          <Select
            id="search-brand"
            value={value.category}
            onChange={(category: string) => onChange({ category })}
            options={[{ value: '', label: 'All brands' }, ...brands.map((b) => ({ value: b.id, label: b.name }))]}
          />
        </div>
      ) : null}
      {brands ? condition : null}
      <div className="search-filters__field search-filters__price">
        <div>
          <label htmlFor="search-min-price">Min price (TK)</label>
          <Input id="search-min-price" type="number" min={0} inputMode="numeric" value={draft.minPrice} onChange={type('minPrice')} />
        </div>
        <div>
          <label htmlFor="search-max-price">Max price (TK)</label>
          <Input id="search-max-price" type="number" min={0} inputMode="numeric" value={draft.maxPrice} onChange={type('maxPrice')} />
        </div>
      </div>
      {brands ? null : condition}
      <div className="search-filters__field">
        <label htmlFor="search-location">Location</label>
        <Input
          id="search-location"
          value={draft.location}
          onChange={type('location')}
          placeholder="e.g. Dhaka"
          allowClear
          maxLength={100}
        />
      </div>
      <div className="search-filters__field">
        <label htmlFor="search-sort">Sort by</label>
        <Select id="search-sort" value={value.sort} onChange={(sort: SearchSort) => onChange({ sort })} options={SORT_OPTIONS} />
      </div>
      <div className="search-filters__field search-filters__switch">
        <Switch id="search-sold" checked={value.sold !== 'false'} onChange={(on) => onChange({ sold: on ? 'any' : 'false' })} />
        <label htmlFor="search-sold">Show sold</label>
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
