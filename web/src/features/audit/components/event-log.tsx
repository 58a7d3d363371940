import { Button, Space } from 'antd';
import { DownloadOutlined, PauseOutlined, CaretRightOutlined } from '@ant-design/icons';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { useSearchParams } from 'react-router-dom';
import { Loaded } from '@/components/ui/loaded';
import { Notice } from '@/components/ui/notice';
import { errorMessage } from '@/lib/api-client';
import { exportEvents, type ExportFormat } from '../api/export-events';
import { filterFromParams, filterToQuery, isFiltered, type TailFilter } from '../filter';
import { useEventTail } from '../use-event-tail';
import { EventFilters } from './event-filters';
import { EventList } from './event-list';
import '../audit.css';

/** The admin's event log: filters in the address, a live tail on top, older pages on request. */
export function EventLog() {
  const [params, setParams] = useSearchParams();
  const query = params.toString();
  // The filter is a value of the address: a new object only when the address changes.
  const filter = useMemo(() => filterFromParams(new URLSearchParams(query)), [query]);
  const [pausedAt, setPausedAt] = useState<number | null>(null);
  const tail = useEventTail(filter, pausedAt);
  const [exporting, setExporting] = useState<ExportFormat | null>(null);

  const changeFilter = useCallback(
    (next: TailFilter) => {
      setPausedAt(null);
      setParams(filterToQuery(next));
    },
    [setParams],
  );
  const filterBy = useCallback((key: 'correlation', value: string) => changeFilter({ [key]: value }), [changeFilter]);

  const download = async (format: ExportFormat) => {
    setExporting(format);
    try {
      await exportEvents(filter, format);
      toast.success(`Exported the events as ${format.toUpperCase()}.`);
    } catch (error) {
      toast.error(`Could not export the events: ${errorMessage(error)}`);
    } finally {
      setExporting(null);
    }
  };

  // Older events loaded: said to a screen reader, and when that was the last page (its button is
  // gone with the focus on it) the focus goes to the first of them.
  const list = useRef<HTMLDivElement>(null);
  const [olderLoaded, setOlderLoaded] = useState<{ after: number; added: number } | null>(null);
  const loadOlder = async () => {
    const last = tail.events.at(-1)?.position;
    const added = await tail.loadOlder();
    if (added !== null && last !== undefined) setOlderLoaded({ after: last, added });
  };
  const [olderNote, setOlderNote] = useState('');
  useEffect(() => {
    if (!olderLoaded) return;
    setOlderLoaded(null);
    const { added, after } = olderLoaded;
    // The count shown makes each note new, so a screen reader says the next one too.
    const start = tail.hasOlder ? '' : ' That is the start of the log.';
    setOlderNote(`Loaded ${added} older event${added === 1 ? '' : 's'}; ${tail.events.length} shown.${start}`);
    if (tail.hasOlder) return;
    const rows = list.current?.querySelectorAll<HTMLElement>('.event-row') ?? [];
    // The first of them, or the last row when that page was empty.
    const first = [...rows].find((row) => Number(row.dataset.position) < after) ?? [...rows].at(-1);
    if (first) {
      first.tabIndex = -1;
      first.focus();
    }
  }, [olderLoaded, tail.events.length, tail.hasOlder]);
  const filtered = isFiltered(filter);

  const paused = pausedAt !== null;
  return (
    <>
      <EventFilters filter={filter} onChange={changeFilter} />
      <div className="event-log__toolbar">
        {/* While paused the button counts what waits: "Resume (3 new)". (Its name says what it
            does, so it is not also a pressed toggle: "Resume, pressed" would say it twice.) */}
        <Button icon={paused ? <CaretRightOutlined /> : <PauseOutlined />} onClick={() => setPausedAt(paused ? null : tail.newest)}>
          {paused ? `Resume${tail.held ? ` (${tail.held} new)` : ''}` : 'Pause'}
        </Button>
        <span className="event-log__status" role="status">
          {paused ? 'Paused: new events wait above.' : 'Live: new events appear on top.'}
        </span>
        <Space.Compact className="event-log__export">
          <Button icon={<DownloadOutlined />} loading={exporting === 'ndjson'} onClick={() => void download('ndjson')}>
            Export NDJSON
          </Button>
          <Button icon={<DownloadOutlined />} loading={exporting === 'csv'} onClick={() => void download('csv')}>
            Export CSV
          </Button>
        </Space.Compact>
      </div>
      {tail.error && filtered && tail.refused ? (
        // A filter the server refused (a link's bad date, say) is not mended by trying again.
        <Notice
          className="load-error"
          type="error"
          role="alert"
          title="Could not load the events."
          description={tail.error}
          action={
            <Space>
              <Button size="small" onClick={tail.retry}>
                Retry
              </Button>
              <Button size="small" onClick={() => changeFilter({})}>
                Clear filters
              </Button>
            </Space>
          }
        />
      ) : (
        <Loaded loading={tail.loading} error={tail.error} retry={tail.retry} what="events">
          <div ref={list}>
            <EventList events={tail.events} liveAfter={tail.head} onFilter={filterBy} filtered={filtered} />
          </div>
          {tail.older.error && <Notice type="error" role="alert" title="Could not load older events." description={tail.older.error} />}
          {tail.hasOlder && (
            <Button className="event-log__older" block loading={tail.older.loading} onClick={() => void loadOlder()}>
              Load older events
            </Button>
          )}
        </Loaded>
      )}
      <span className="visually-hidden" role="status">
        {olderNote}
      </span>
    </>
  );
}
