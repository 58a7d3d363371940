import type { LogEvent } from '@tv-shop/contracts';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Tag } from '@/components/ui/tag';
import { errorMessage } from '@/lib/api-client';
import { getEffects, getEvent } from '../api/get-events';
import { typeColour } from '../event-types';
import { auditPaths } from '../paths';
import { useLogReturn } from '../use-log-return';

export function EventTypeTag({ type }: { type: string }) {
  return (
    <Tag color={typeColour(type)} className="event-type">
      {type}
    </Tag>
  );
}

// With the year and the zone: the filters take the browser's time, the export and the charts UTC.
const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const clockFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' });

/** The event's moment in this browser's time: its day, then its time and zone (on a line of its own where the column is narrow). */
export function EventTime({ at }: { at: string }) {
  const moment = new Date(at);
  return (
    <time dateTime={at} title={at} className="event-time">
      <span className="event-time__part">{dateFormat.format(moment)}</span>{' '}
      <span className="event-time__part">{clockFormat.format(moment)}</span>
    </time>
  );
}

/** Who did it: their name as the log last said it, and their role (the system's own reactions say System). */
export function ActorLabel({ actor }: { actor: LogEvent['actor'] }) {
  // Without a name: a visitor (signing up) or the system says its role alone; an account its id's start.
  const anonymous = actor.role === 'System' || actor.role === 'Visitor' || !/^[0-9a-f]{8}-/i.test(actor.id);
  const name = actor.name ?? (anonymous ? null : `user ${actor.id.slice(0, 8)}`);
  return (
    <span className="event-actor" title={actor.id}>
      {name && name !== actor.role && <span className="event-actor__name">{name} </span>}
      <Tag className="event-actor__role">{actor.role}</Tag>
    </span>
  );
}

export function EventData({ event }: { event: LogEvent }) {
  return <pre className="event-data">{JSON.stringify(event.data, null, 2)}</pre>;
}

/**
 * An event's cause is fetched once per event id for the tab's life: a stored event never changes.
 * Its effects are asked each time they are shown: a policy may set off more of them later.
 */
const causes = new Map<string, Promise<LogEvent>>();

function useAsk<T>(key: string | null, ask: (key: string) => Promise<T>, cache: Map<string, Promise<T>> | null) {
  const [answer, setAnswer] = useState<{ key: string; value?: T; error?: string } | null>(null);
  useEffect(() => {
    if (!key) return;
    let alive = true;
    let promise = cache?.get(key);
    if (!promise) {
      promise = ask(key);
      if (cache) {
        cache.set(key, promise);
        // A failed ask may be tried again later.
        promise.catch(() => cache.delete(key));
      }
    }
    promise.then(
      (value) => alive && setAnswer({ key, value }),
      (error: unknown) => alive && setAnswer({ key, error: errorMessage(error) }),
    );
    return () => {
      alive = false;
    };
  }, [key, ask, cache]);
  return answer && answer.key === key ? answer : null;
}

const askEffects = async (eventId: string) => (await getEffects(eventId)).events;

/** "caused by <type>" for a policy's effect, and "caused <type>" for each event this one set off. */
export function CauseLinks({ event }: { event: LogEvent }) {
  const cause = useAsk(event.causationId, getEvent, causes);
  const caused = useAsk(event.eventId, askEffects, null);
  const effectsList = caused?.value ?? [];
  const back = useLogReturn();
  return (
    <div className="cause-links">
      {event.causationId &&
        (cause?.value ? (
          <Link to={auditPaths.stream.href(cause.value.streamId, cause.value.position)} state={back}>
            caused by {cause.value.type}
          </Link>
        ) : (
          <span className="cause-links__pending">{cause?.error ? `Cause not found: ${cause.error}` : 'Finding its cause…'}</span>
        ))}
      {effectsList.length > 0 && (
        <span className="cause-links__effects">
          {effectsList.map((effect) => (
            <Link key={effect.eventId} to={auditPaths.stream.href(effect.streamId, effect.position)} state={back}>
              caused {effect.type} on {effect.streamId}
            </Link>
          ))}
          <Link to={`${auditPaths.events.href()}?cause=${encodeURIComponent(event.eventId)}`}>all it caused, in the log</Link>
        </span>
      )}
      {!event.causationId && caused?.value && effectsList.length === 0 && (
        <span className="cause-links__none">Caused nothing further so far.</span>
      )}
    </div>
  );
}
