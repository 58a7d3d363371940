import type { LogEvent, StreamHistory } from '@tv-shop/contracts';
import { Button, ConfigProvider, Slider, Tag } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { Loaded } from '@/components/ui/loaded';
import { Spinner } from '@/components/ui/spinner';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useLoad } from '@/lib/use-load';
import { useMounted } from '@/lib/use-mounted';
import { listsReloadAtom } from '@/lib/use-live-list';
import { getStream } from '../api/get-stream';
import { pushedEventsAtom } from '../atoms';
import { auditPaths } from '../paths';
import { ActorLabel, CauseLinks, EventData, EventTime, EventTypeTag } from './event-parts';
import { StateView } from './state-view';
import '../audit.css';
import { Notice } from '@/components/ui/notice';

/** How long the slider rests on a step before its state is asked for (dragging passes many). */
const SETTLE_MS = 120;

/** How many earlier events a press of "Earlier events" reads; an address's older step reads in larger pages. */
const EARLIER_PAGE = 100;
const CATCH_UP_PAGE = 500;

/** What each read of a stream says of its entity: the state at `at`, and just before its event. */
type StateAnswer = Pick<StreamHistory, 'at' | 'state' | 'previous'>;
const NO_STATES: readonly StateAnswer[] = [];

/** Events read with the earlier pages: one run, without a gap, from the earliest page read on. */
interface EarlierEvents {
  streamId: string;
  events: LogEvent[];
  /** How many of the stream's events come before them. */
  earlier: number;
  /** The states the earlier pages' answers brought (right for good, gap or not). */
  states: readonly StateAnswer[];
}

/** Runs of one stream's events joined, each event once, oldest first. */
const joined = (...runs: LogEvent[][]) => {
  const byPosition = new Map<number, LogEvent>();
  for (const e of runs.flat()) byPosition.set(e.position, e);
  return [...byPosition.values()].sort((a, b) => a.position - b.position);
};

/**
 * The stream's events: the latest page as read, the earlier pages asked for, then each pushed one
 * of the same stream. A seller's stream has an event for each listing, so it comes a page at a time.
 */
function useStreamEvents(streamId: string) {
  const reload = useAtomValue(listsReloadAtom);
  const pushed = useAtomValue(pushedEventsAtom);
  const [history, setHistory] = useState<StreamHistory | null>(null);
  const [older, setOlder] = useState<EarlierEvents | null>(null);
  // No such stream in the log (a mistyped or made-up address): the log never gains a past, so
  // asking again would answer the same; said without a Retry.
  const [missing, setMissing] = useState(false);
  const load = useCallback(async () => {
    try {
      setHistory(await getStream(streamId));
      setMissing(false);
    } catch (failure) {
      if (!(failure instanceof ApiError && failure.status === 404)) throw failure;
      setMissing(true);
    }
  }, [streamId]);
  const state = useLoad(load, reload);
  const current = history?.streamId === streamId ? history : null;
  // Earlier pages stay with a newer latest page only while they reach it: their last event is the
  // one just before its first, or later (a reload after many new events leaves a gap: they are
  // read again when asked for). An event's version is its place in the stream.
  const reach = (older?.events.at(-1)?.version ?? -1) + 1;
  const kept = current && older?.streamId === streamId && reach >= current.earlier ? older : null;
  const events = useMemo(() => {
    if (!current) return [];
    const live = pushed.filter((e) => e.streamId === streamId && e.position > current.at);
    return joined(kept?.events ?? [], current.events, live);
  }, [current, kept, pushed, streamId]);
  const earlier = kept ? kept.earlier : (current?.earlier ?? 0);
  // The states the earlier pages' answers brought, for this stream.
  const olderStates = older?.streamId === streamId ? older.states : NO_STATES;
  // Every answer's states, so a step a page ends at is not asked for again.
  const answers = useMemo(() => [...(current ? [current] : []), ...olderStates], [current, olderStates]);

  const [reading, setReading] = useState(false);
  const [earlierError, setEarlierError] = useState<string | null>(null);
  const mounted = useMounted();
  /** Reads the page before the first event shown; the events it added, oldest first (none when it failed). */
  const loadEarlier = useCallback(
    async (limit: number): Promise<LogEvent[]> => {
      const first = events[0];
      if (!current || !first || earlier === 0 || reading) return [];
      setReading(true);
      setEarlierError(null);
      try {
        const page = await getStream(streamId, { at: first.position - 1, limit });
        if (!mounted.current) return [];
        // One run from the page read to the latest page's end (pushed events are not in it). A
        // reload meanwhile may have moved the latest page on: `kept` then says whether it still reaches.
        const states = [...olderStates, { at: page.at, state: page.state, previous: page.previous }];
        setOlder({ streamId, events: joined(page.events, kept?.events ?? [], current.events), earlier: page.earlier, states });
        return page.events;
      } catch (failure) {
        if (mounted.current) setEarlierError(errorMessage(failure));
        return [];
      } finally {
        if (mounted.current) setReading(false);
      }
    },
    [current, kept, olderStates, events, earlier, reading, streamId, mounted],
  );
  return { history: current, answers, missing, events, earlier, loadEarlier, reading, earlierError, ...state };
}

/** States already read, by the log position they are as of (the log never changes, so they stay right). */
function useStatesAt(streamId: string, answers: readonly StateAnswer[], wanted: number[]) {
  const [states, setStates] = useState<{ streamId: string; at: Map<number, unknown> }>({ streamId, at: new Map() });
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const known = useMemo(() => {
    const at = new Map(states.streamId === streamId ? states.at : []);
    for (const answer of answers) {
      if (!at.has(answer.at)) at.set(answer.at, answer.state);
      // Each answer brings the state just before its event too (the diff needs no second read).
      if ('previous' in answer && answer.at > 0 && !at.has(answer.at - 1)) at.set(answer.at - 1, answer.previous);
    }
    return at;
  }, [states, streamId, answers]);
  // A read at `at` answers `at - 1` too (the state before its event): that one is not asked for as well.
  const missing = wanted.filter((at) => !known.has(at));
  const key = missing.filter((at) => !missing.includes(at + 1)).join(',');

  // Answers stay right for good, so one asked for is never asked again nor thrown away.
  const asking = useRef(new Set<string>());
  const mounted = useMounted();
  useEffect(() => {
    if (!key) return;
    const timer = setTimeout(() => {
      for (const at of key.split(',').map(Number)) {
        const id = `${streamId}@${at}`;
        if (asking.current.has(id)) continue;
        asking.current.add(id);
        getStream(streamId, { at, limit: 0 }).then(
          (answer) => {
            if (!mounted.current) return;
            setError(null);
            setStates((s) => {
              const next = new Map(s.streamId === streamId ? s.at : []).set(at, answer.state);
              // Before the event the answer ends at, which is not the position asked for when no event is there.
              if ('previous' in answer && answer.at > 0) next.set(answer.at - 1, answer.previous);
              return { streamId, at: next };
            });
          },
          (e: unknown) => {
            asking.current.delete(id);
            if (mounted.current) setError(errorMessage(e));
          },
        );
      }
    }, SETTLE_MS);
    return () => clearTimeout(timer);
  }, [key, streamId, attempt]);
  const retry = useCallback(() => {
    setError(null);
    setAttempt((n) => n + 1);
  }, []);
  return { known, error, retry };
}

/** A handle a finger can hold: 20 px on a track 24 px tall to touch (antd's: 10 on 10), WCAG 2.2's target size. */
const sliderTheme = { components: { Slider: { controlSize: 24, handleSize: 20, handleSizeHover: 22, railSize: 6 } } };

/**
 * One stream's events with a slider over them: each step shows the entity as the owning service
 * folded it at that event, with what the event changed marked.
 */
export function StreamTimeline({ streamId }: { streamId: string }) {
  const { history, answers, missing, events, earlier, loadEarlier, reading, earlierError, ...load } = useStreamEvents(streamId);
  const [params, setParams] = useSearchParams();
  // A step is an address of its own, but the same visit: the log's filters it came from stay with it.
  const carried = useLocation().state as unknown;
  // A position; anything else in the address (empty, words) is the latest step, as no `at` is.
  const atParam = /^\d{1,15}$/.test(params.get('at') ?? '') ? Number(params.get('at')) : null;
  const atNow = useRef(atParam);
  atNow.current = atParam;
  // The stream's length, from the last event's own version (0 for a stream's first).
  const total = (events.at(-1)?.version ?? -1) + 1;

  // The address holds the step (`at`, a position); without it the latest step is shown and followed.
  let index = events.length - 1;
  // An address's step before the events read. While earlier pages remain, they are read until it is
  // among them; with every page read, the stream had not begun then, so its first step is the
  // nearest, shown and said (not the latest, far from what was asked).
  const beforeRead = atParam !== null && events.length > 0 && atParam < events[0]!.position;
  const catchingUp = beforeRead && earlier > 0;
  const beforeStart = beforeRead && earlier === 0;
  if (atParam !== null) {
    const found = events.findLastIndex((e) => e.position <= atParam);
    if (found >= 0) index = found;
    else if (beforeStart) index = 0;
  }
  useEffect(() => {
    if (catchingUp && !reading && !earlierError) void loadEarlier(CATCH_UP_PAGE);
  }, [catchingUp, reading, earlierError, loadEarlier]);
  const current = events[index];
  const show = (position: number, latest: boolean) => {
    const next = new URLSearchParams(params);
    if (latest) next.delete('at');
    else next.set('at', String(position));
    setParams(next, { replace: true, state: carried });
  };
  const go = (i: number) => {
    const target = events[Math.max(0, Math.min(events.length - 1, i))];
    if (target) show(target.position, i >= events.length - 1);
  };
  // Before the first event read: the page before it, then its last event (unless the admin moved
  // to another step meanwhile).
  const back = () => {
    if (index > 0) return go(index - 1);
    const from = atParam;
    void loadEarlier(EARLIER_PAGE).then((added) => {
      const last = added.at(-1);
      if (last && atNow.current === from) show(last.position, false);
    });
  };
  // "Earlier events" gone with the stream's first page read: the focus goes to the last event it
  // added (the one just before those shown before), not to the page's start.
  const list = useRef<HTMLOListElement>(null);
  const [focusAt, setFocusAt] = useState<number | null>(null);
  const readEarlier = () => void loadEarlier(EARLIER_PAGE).then((added) => setFocusAt(added.at(-1)?.position ?? null));
  useEffect(() => {
    if (focusAt === null) return;
    if (earlier === 0) list.current?.querySelector<HTMLButtonElement>(`[data-position="${focusAt}"]`)?.focus();
    setFocusAt(null);
  }, [focusAt, earlier]);
  const stepOf = (event: LogEvent | undefined) => (event ? `Step ${event.version + 1} of ${total}` : '');

  // The state at this event, and just before it (the stream's previous event, or its start).
  const stateAt = current?.position;
  const wanted = useMemo(() => (stateAt === undefined ? [] : [stateAt, stateAt - 1]), [stateAt]);
  const states = useStatesAt(streamId, answers, wanted);

  return (
    <Loaded loading={load.loading} error={load.error} retry={load.retry} what="stream">
      {missing && !history && <Notice role="alert" type="info" title="The log has no stream of this name." />}
      {history && (
        <div className="timeline">
          <p className="timeline__meta">
            <Tag>{history.owner}</Tag>
            <Tag>{history.category}</Tag>
            <span>
              {total.toLocaleString('en-US')} event{total === 1 ? '' : 's'}
              {earlier > 0 && `, the latest ${events.length.toLocaleString('en-US')} read`}
            </span>
            <Link to={`${auditPaths.events.href()}?stream=${encodeURIComponent(streamId)}`}>Show in the event log</Link>
          </p>
          {earlierError && (
            <Notice
              role="alert"
              type="error"
              title="Could not read the earlier events."
              description={earlierError}
              action={
                <Button size="small" onClick={() => void loadEarlier(catchingUp ? CATCH_UP_PAGE : EARLIER_PAGE)}>
                  Retry
                </Button>
              }
            />
          )}
          {catchingUp ? (
            !earlierError && <Spinner label="Reading the stream's earlier events" />
          ) : current ? (
            <>
              {beforeStart && (
                <Notice role="status" type="info" title={`The stream began after position ${atParam}: its first event is shown.`} />
              )}
              <div className="timeline__slider">
                <Button
                  icon={<LeftOutlined />}
                  aria-label="Previous event"
                  disabled={index <= 0 && earlier === 0}
                  loading={index <= 0 && reading}
                  onClick={back}
                />
                <ConfigProvider theme={sliderTheme}>
                  <Slider
                    className="timeline__range"
                    min={0}
                    max={Math.max(events.length - 1, 0)}
                    value={index}
                    disabled={events.length < 2}
                    onChange={go}
                    ariaLabelForHandle="Time travel"
                    ariaValueTextFormatterForHandle={(i) => (i === undefined ? '' : `${stepOf(events[i])}: ${events[i]?.type ?? ''}`)}
                    tooltip={{ formatter: (i) => (i === undefined || !events[i] ? '' : `${events[i].version + 1}. ${events[i].type}`) }}
                  />
                </ConfigProvider>
                <Button
                  icon={<RightOutlined />}
                  aria-label="Next event"
                  disabled={index >= events.length - 1}
                  onClick={() => go(index + 1)}
                />
              </div>
              <section className="timeline__step" aria-labelledby="timeline-step-heading">
                <h2 id="timeline-step-heading" className="timeline__step-heading">
                  {stepOf(current)}: <EventTypeTag type={current.type} />
                </h2>
                <p className="timeline__step-meta">
                  <EventTime at={current.at} /> <ActorLabel actor={current.actor} /> <span>position {current.position}</span>
                </p>
                <CauseLinks event={current} />
                <details className="timeline__data">
                  <summary>Event data</summary>
                  <EventData event={current} />
                </details>
              </section>
              <section className="timeline__state" aria-labelledby="timeline-state-heading">
                <h2 id="timeline-state-heading" className="timeline__step-heading">
                  State after this event
                </h2>
                {states.error && (
                  <Notice
                    role="alert"
                    type="error"
                    title="Could not read the state."
                    description={states.error}
                    action={
                      <Button size="small" onClick={states.retry}>
                        Retry
                      </Button>
                    }
                  />
                )}
                {states.known.has(current.position) && states.known.has(current.position - 1) ? (
                  <StateView
                    state={states.known.get(current.position)}
                    before={states.known.get(current.position - 1)}
                    caption={`State of ${streamId} after ${current.type}`}
                  />
                ) : (
                  <Spinner label="Reading the state" />
                )}
              </section>
              {earlier > 0 && (
                <Button className="timeline__earlier" loading={reading} onClick={readEarlier}>
                  Earlier events ({earlier.toLocaleString('en-US')} more)
                </Button>
              )}
              <ol ref={list} className="timeline__events" aria-label="The stream's events">
                {events.map((event, i) => (
                  <li key={event.position}>
                    <button
                      type="button"
                      className="timeline__event"
                      data-position={event.position}
                      aria-current={i === index ? 'step' : undefined}
                      onClick={() => go(i)}
                    >
                      <span className="timeline__event-n">{event.version + 1}</span>
                      <EventTypeTag type={event.type} />
                      <EventTime at={event.at} />
                    </button>
                  </li>
                ))}
              </ol>
            </>
          ) : (
            <p className="empty-text">This stream has no events.</p>
          )}
        </div>
      )}
    </Loaded>
  );
}
