import { Button, Form } from 'antd';
import Input from 'antd/es/input/Input';
import { useEffect, useRef, useState } from 'react';
import { FormSelect } from '@/components/ui/form-select';
import { CloseIcon } from '@/components/ui/icons';
import { Tag } from '@/components/ui/tag';
import { eventTypes } from '../event-types';
import { filterToQuery, type TailFilter } from '../filter';

interface Values {
  type?: string;
  stream?: string;
  actor?: string;
  correlation?: string;
  from?: string;
  to?: string;
}

/** An ISO time as a datetime-local input shows it (the browser's own time zone), and back. */
const toLocal = (iso?: string) => {
  if (!iso) return undefined;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? undefined : new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
/**
 * Where the browser's time zone is not UTC, the From and To fields say which they take: the
 * browser's, as the log's times show (a link's UTC times are turned into it).
 */
const zoneNote = (() => {
  const minutes = -new Date().getTimezoneOffset();
  if (minutes === 0) return undefined;
  const sign = minutes > 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  return `Your time, GMT${sign}${Math.floor(abs / 60)}${abs % 60 ? `:${String(abs % 60).padStart(2, '0')}` : ''}`;
})();

/** `throughMinute`: a time to the minute (as the field gives it) means up to that minute's end: To 10:30 includes 10:30:59. */
const toIso = (local?: string, throughMinute = false) => {
  if (!local) return undefined;
  const d = new Date(local);
  if (Number.isNaN(d.getTime())) return undefined;
  return new Date(d.getTime() + (throughMinute && local.length === 16 ? 59_999 : 0)).toISOString();
};

const typeOptions = eventTypes.map((type) => ({ value: type, label: type }));

/** As the server caps them (LogQuery): longer is refused, so the field stops there. */
const MAX_LENGTH = { stream: 240, actor: 320, correlation: 120 } as const;

/** Wide enough that the filters take a few rows beside the log; on a phone they would fill its first screen. */
const roomy = () => typeof window.matchMedia !== 'function' || window.matchMedia('(min-width: 576px)').matches;

/**
 * The event log's filters; applying them reads the log again (the address keeps them). They fold
 * under their heading, which says how many are applied: folded at first on a phone, so the log
 * itself is on its first screen, unless the address already filters it. Applied on a phone, they
 * fold again so the events that match are in view; a link in the list that filters the log
 * unfolds them and takes the focus there, to show what now applies and the way to clear it.
 */
export function EventFilters({ filter, onChange }: { filter: TailFilter; onChange: (filter: TailFilter) => void }) {
  // Clear empties the fields even when nothing was applied yet (the filter is already empty).
  const [cleared, setCleared] = useState(0);
  // The filter as the address has it: how many are set (the cause too, which a link sets).
  const query = filterToQuery(filter);
  const count = Object.keys(query).length;
  // A type this page does not know (a link from a newer shop) is still the one applied: shown as such.
  const options =
    filter.type && !(eventTypes as readonly string[]).includes(filter.type)
      ? [...typeOptions, { value: filter.type, label: filter.type }]
      : typeOptions;
  const [open, setOpen] = useState(() => count > 0 || roomy());
  const summary = useRef<HTMLElement>(null);
  /** Whether the next new filter is this form's own (Apply, Clear, the cause's close) rather than a link's. */
  const own = useRef(false);
  const [fromLink, setFromLink] = useState(false);
  const key = JSON.stringify(query);
  const [shownFor, setShownFor] = useState(key);
  if (shownFor !== key) {
    setShownFor(key);
    if (!own.current && count > 0) {
      setOpen(true);
      setFromLink(true);
    }
    own.current = false;
  }
  useEffect(() => {
    if (!fromLink) return;
    setFromLink(false);
    summary.current?.focus();
  }, [fromLink]);
  const change = (next: TailFilter) => {
    own.current = JSON.stringify(filterToQuery(next)) !== key;
    onChange(next);
  };
  // A time left as the address gave it stays exactly that (a bare date means a whole UTC day there,
  // which the field can only show as its first minute in this browser's time).
  const unchanged = (given: string | undefined, shown: string | undefined) =>
    given !== undefined && shown === toLocal(given) && shown !== undefined;
  const apply = (values: Values) => {
    // On a phone they fold to show the events; the focus goes to their heading, not the hidden button.
    if (!roomy()) {
      setOpen(false);
      summary.current?.focus();
    }
    change({
      type: values.type || undefined,
      stream: values.stream?.trim() || undefined,
      actor: values.actor?.trim() || undefined,
      correlation: values.correlation?.trim() || undefined,
      cause: filter.cause,
      from: unchanged(filter.from, values.from) ? filter.from : toIso(values.from),
      to: unchanged(filter.to, values.to) ? filter.to : toIso(values.to, true),
    });
  };
  return (
    <details className="event-filters__box" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary ref={summary} className="event-filters__summary">
        Filters{count > 0 ? ` (${count} applied)` : ''}
      </summary>
      <Form<Values>
        // A new filter from outside (a link, Clear) puts fresh values in the fields.
        key={`${cleared}:${key}`}
        className="event-filters"
        layout="vertical"
        aria-label="Filter the events"
        initialValues={{ ...filter, from: toLocal(filter.from), to: toLocal(filter.to) }}
        onFinish={apply}
      >
        <Form.Item name="type" label="Type" className="event-filters__field">
          <FormSelect anyLabel="Any type" options={options} />
        </Form.Item>
        <Form.Item name="stream" label="Stream" className="event-filters__field">
          <Input placeholder="product-…" allowClear maxLength={MAX_LENGTH.stream} />
        </Form.Item>
        <Form.Item name="actor" label="Actor" className="event-filters__field">
          <Input placeholder="User id or email" allowClear maxLength={MAX_LENGTH.actor} />
        </Form.Item>
        <Form.Item name="correlation" label="Correlation" className="event-filters__field">
          <Input placeholder="Correlation id" allowClear maxLength={MAX_LENGTH.correlation} />
        </Form.Item>
        <Form.Item name="from" label="From" className="event-filters__field" extra={zoneNote}>
          <Input type="datetime-local" />
        </Form.Item>
        <Form.Item
          name="to"
          label="To"
          className="event-filters__field"
          extra={zoneNote}
          dependencies={['from']}
          rules={[
            ({ getFieldValue }) => ({
              validator: (_, to?: string) => {
                const from = toIso(getFieldValue('from') as string | undefined);
                const until = toIso(to);
                return from && until && until < from ? Promise.reject(new Error('To must not be before From')) : Promise.resolve();
              },
            }),
          ]}
        >
          <Input type="datetime-local" />
        </Form.Item>
        <div className="event-filters__actions">
          {filter.cause && (
            <Tag className="event-filters__cause">
              Caused by event {filter.cause.slice(0, 8)}
              <button
                type="button"
                className="event-filters__uncause"
                aria-label="Show events with any cause"
                onClick={() => change({ ...filter, cause: undefined })}
              >
                <CloseIcon />
              </button>
            </Tag>
          )}
          <Button type="primary" htmlType="submit">
            Apply filters
          </Button>
          <Button
            onClick={() => {
              setCleared((n) => n + 1);
              change({});
            }}
          >
            Clear
          </Button>
        </div>
      </Form>
    </details>
  );
}
