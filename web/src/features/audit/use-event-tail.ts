import type { LogEvent } from '@tv-shop/contracts';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, errorMessage, logFailure } from '@/lib/api-client';
import { noteListRead } from '@/lib/live-socket';
import { useLoad } from '@/lib/use-load';
import { listsReloadAtom } from '@/lib/use-live-list';
import { getEventsAfter, getEventsNewestFirst } from './api/get-events';
import { pushedEventsAtom } from './atoms';
import { matchesFilter, skipsAfter, type TailFilter } from './filter';

interface Loaded {
  /** Which read of the first page this is: the live events and older pages belong to one. */
  read: number;
  /** Read from the server, newest first: the first page and every older one asked for. */
  events: LogEvent[];
  /** The `before` for the next older page; null when the oldest has been read. */
  next: number | null;
  /** The head of the log when the first page was read: pushes after it are new. */
  head: number;
  /** Whether an older page was asked for: the operator is reading back, not watching the top. */
  readBack: boolean;
}

/** The events after a page's head that pass the filter, newest first, as they came. */
interface Live {
  /** The read they follow (`Loaded.read`): a late answer for an earlier read is dropped. */
  for: number;
  events: LogEvent[];
  /** Asked of the server up to here: every event to this position that passes is in `events`. */
  upTo: number;
}

/**
 * More live events than this since the page was read: the page is read again (newest first).
 * Ten times as many once older pages were read, which a new read would drop from under the
 * operator reading them.
 */
const MAX_LIVE = 2_000;
const MAX_LIVE_READING_BACK = 20_000;
/** After a failed ask, the next one waits this long. */
const ASK_AGAIN_MS = 5_000;

const newestFirst = (a: LogEvent, b: LogEvent) => b.position - a.position;

/** `events` (newest first) with `more` added, each position once. */
function withEvents(events: LogEvent[], more: readonly LogEvent[]): LogEvent[] {
  const have = new Set(events.map((e) => e.position));
  const added = more.filter((e) => !have.has(e.position));
  return added.length === 0 ? events : [...events, ...added].sort(newestFirst);
}

/**
 * The filtered log, newest first: one page read from the server, then every pushed event that
 * passes the filter goes on top, without asking again. The server is asked only for what a push
 * cannot say: whether an event passes a filter the page cannot check (an actor's email), and the
 * events of a position the pushes skipped (the event log caught up on events too old to push,
 * ADR 0038; or more came at once than this tab keeps). Older pages come on request. While
 * `pausedAt` is set, events after it are held back (counted in `held`) so the list keeps still.
 */
export function useEventTail(filter: TailFilter, pausedAt: number | null) {
  const reload = useAtomValue(listsReloadAtom);
  const pushed = useAtomValue(pushedEventsAtom);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [live, setLive] = useState<Live>({ for: 0, events: [], upTo: 0 });
  /** The newest read of the first page started: an earlier one answering late is dropped. */
  const started = useRef(0);
  const [older, setOlder] = useState<{ loading: boolean; error: string | null }>({ loading: false, error: null });

  /** The last read was refused for its filter (a 400: a link's bad date), which trying again will not mend. */
  const [refused, setRefused] = useState(false);

  const load = useCallback(async () => {
    const read = ++started.current;
    let page;
    try {
      page = await getEventsNewestFirst(filter);
    } catch (error) {
      if (read === started.current) setRefused(error instanceof ApiError && error.status === 400);
      throw error;
    }
    if (read !== started.current) return;
    setRefused(false);
    setLoaded({ read, events: page.events, next: page.next, head: page.head, readBack: false });
    setLive({ for: read, events: [], upTo: page.head });
    // Events after the head come by push, or by the socket's catch-up if it was not connected yet.
    noteListRead(page.head);
  }, [filter]);
  const state = useLoad(load, reload);

  const head = loaded?.head ?? Infinity;
  // Pushes that pass are kept here as they come (the tab's pushes keep only the last 1,000).
  useEffect(() => {
    if (!loaded) return;
    const passing = pushed.filter((e) => e.position > loaded.head && matchesFilter(e, filter) === true);
    if (passing.length > 0) setLive((l) => (l.for === loaded.read ? { ...l, events: withEvents(l.events, passing) } : l));
  }, [pushed, loaded, filter]);

  const current = live.for === loaded?.read;
  const covered = Math.max(head, current ? live.upTo : head);
  // A push the page cannot judge: ask the server which of the events since the last answer pass.
  const unjudged = useMemo(
    () => pushed.some((e) => e.position > covered && matchesFilter(e, filter) === undefined),
    [pushed, covered, filter],
  );
  // Every event of the log is pushed here in order, so a skipped position is an event this tab
  // was not sent. (A failed append skips one too: asked once, for nothing.)
  const gap = useMemo(() => skipsAfter(pushed, covered), [pushed, covered]);
  const ask = loaded !== null && (unjudged || gap);
  // One ask at a time; its answer counts for the page it was asked for, whatever came meanwhile.
  const asking = useRef(false);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (!ask || asking.current || !loaded) return;
    asking.current = true;
    const { read } = loaded;
    getEventsAfter(filter, covered).then(
      (page) => {
        asking.current = false;
        const upTo = page.next ?? Math.max(page.events.at(-1)?.position ?? covered, page.head);
        setLive((l) => (l.for === read ? { ...l, events: withEvents(l.events, page.events), upTo: Math.max(l.upTo, upTo) } : l));
        // Asked again at once if this answer moved on (a page of many) or came for an earlier read:
        // else only at the next change.
        if (upTo > covered || read !== started.current) setAsked((n) => n + 1);
      },
      (error: unknown) => {
        asking.current = false;
        logFailure(error);
        setTimeout(() => setAsked((n) => n + 1), ASK_AGAIN_MS);
      },
    );
  }, [ask, loaded, covered, filter, asked]);

  const liveEvents = useMemo(() => (current ? live.events : []), [current, live.events]);
  // A busy log, watched for long: rather than grow without end, the page is read again.
  const { retry } = state;
  const tooMany = liveEvents.length > (loaded?.readBack ? MAX_LIVE_READING_BACK : MAX_LIVE) && pausedAt === null;
  useEffect(() => {
    if (tooMany) retry();
  }, [tooMany, retry]);

  const all = useMemo(() => {
    const byPosition = new Map<number, LogEvent>();
    for (const e of [...liveEvents, ...(loaded?.events ?? [])]) byPosition.set(e.position, e);
    return [...byPosition.values()].sort(newestFirst);
  }, [liveEvents, loaded]);

  const events = useMemo(() => (pausedAt === null ? all : all.filter((e) => e.position <= pausedAt)), [all, pausedAt]);

  /** Reads the next older page; answers how many events it added (null when it failed or was dropped). */
  const loadOlder = useCallback(async (): Promise<number | null> => {
    if (!loaded || loaded.next === null) return null;
    const { read, next: before } = loaded;
    setOlder({ loading: true, error: null });
    try {
      const page = await getEventsNewestFirst(filter, before);
      setOlder({ loading: false, error: null });
      // Only onto the list it was asked for: read again meanwhile (the filter changed, a
      // reload), the older page belongs to a list no longer shown, and its cursor with it.
      if (read !== started.current) return null;
      setLoaded((l) =>
        l && l.read === read && l.next === before ? { ...l, events: [...l.events, ...page.events], next: page.next, readBack: true } : l,
      );
      return page.events.length;
    } catch (error) {
      setOlder({ loading: false, error: errorMessage(error) });
      return null;
    }
  }, [filter, loaded]);

  return {
    ...state,
    refused,
    events,
    /** Events that arrived while paused. */
    held: all.length - events.length,
    /** The newest position on screen or held: where a pause freezes the list. */
    newest: all[0]?.position ?? loaded?.head ?? 0,
    /** Events above this position arrived live (they slide in). */
    head: loaded?.head ?? 0,
    hasOlder: loaded?.next !== null && loaded !== null,
    loadOlder,
    older,
  };
}
