import type { LogEvent } from '@tv-shop/contracts';
import { Button } from 'antd';
import { memo, useState } from 'react';
import { Link } from 'react-router-dom';
import { EmptyText } from '@/components/ui/empty-text';
import { auditPaths } from '../paths';
import { useLogReturn } from '../use-log-return';
import { ActorLabel, CauseLinks, EventData, EventTime, EventTypeTag } from './event-parts';

/** What an event is in words, for its row's label and its buttons. */
const describe = (event: LogEvent) => `${event.type} on ${event.streamId}`;

/** A row renders again only when its own event, or whether it came live, changes: a busy log adds rows on top of thousands. */
const EventRow = memo(function EventRow({
  event,
  live,
  onFilter,
}: {
  event: LogEvent;
  live: boolean;
  onFilter: (key: 'correlation', value: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const detailsId = `event-${event.position}-details`;
  const back = useLogReturn();
  return (
    <li className={live ? 'event-row event-row--live' : 'event-row'} aria-label={describe(event)} data-position={event.position}>
      <div className="event-row__main">
        <EventTime at={event.at} />
        <EventTypeTag type={event.type} />
        <Link
          className="event-row__stream"
          to={auditPaths.stream.href(event.streamId, event.position)}
          state={back}
          title="Open the stream's timeline"
        >
          {event.streamId}
        </Link>
        <ActorLabel actor={event.actor} />
        <Button
          type="link"
          size="small"
          className="event-row__toggle"
          aria-expanded={open}
          aria-controls={detailsId}
          aria-label={`${open ? 'Hide' : 'Show'} data of ${describe(event)}`}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide data' : 'Data'}
        </Button>
      </div>
      {open && (
        <div id={detailsId} className="event-row__details">
          <CauseLinks event={event} />
          <EventData event={event} />
          <dl className="event-row__ids">
            <div>
              <dt>Position</dt>
              <dd>{event.position}</dd>
            </div>
            <div>
              <dt>Version</dt>
              <dd>{event.version}</dd>
            </div>
            <div>
              <dt>Event id</dt>
              <dd>{event.eventId}</dd>
            </div>
            <div>
              <dt>Correlation</dt>
              <dd>
                <Button
                  type="link"
                  size="small"
                  className="event-row__id-link"
                  onClick={() => onFilter('correlation', event.correlationId)}
                >
                  {event.correlationId}
                </Button>
              </dd>
            </div>
          </dl>
        </div>
      )}
    </li>
  );
});

/** The log as rows on a wide screen and cards on a phone (the same markup; CSS lays it out). */
export function EventList({
  events,
  liveAfter,
  onFilter,
  filtered,
}: {
  events: LogEvent[];
  /** Whether filters apply: an empty list says which it is. */
  filtered: boolean;
  /** Events after this position came by push: they slide in. */
  liveAfter: number;
  onFilter: (key: 'correlation', value: string) => void;
}) {
  if (events.length === 0) return <EmptyText>{filtered ? 'No events match these filters.' : 'No events yet.'}</EmptyText>;
  return (
    <ol className="event-list" aria-label="Events, newest first">
      {events.map((event) => (
        <EventRow key={event.position} event={event} live={event.position > liveAfter} onFilter={onFilter} />
      ))}
    </ol>
  );
}
