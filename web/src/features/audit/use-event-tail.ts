import type { LogEvent } from '@tv-shop/contracts';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { errorMessage, logFailure } from '@/lib/api-client';
import { noteListRead } from '@/lib/live-socket';
import { useLoad } from '@/lib/use-load';
import { listsReloadAtom } from '@/lib/use-live-list';
import { getEventsAfter, getEventsNewestFirst } from './api/get-events';
import { pushedEventsAtom } from './atoms';
import { matchesFilter, type TailFilter } from './filter';

interface Loaded {
  /** Read from the server, newest first: the first page and every older one asked for. */
  events: LogEvent[];
  /** The `before` for the next older page; null when the oldest has been read. */
  next: number | null;
  /** The head of the log when the first page was read: pushes after it are new. */
  head: number;
}

const newestFirst = (a: LogEvent, b: LogEvent) => b.position - a.position;

/**
 * The filtered log, newest first: one page read from the server, then every pushed event that
 * passes the filter goes on top, without asking again. Older pages come on request. While
 * `pausedAt` is set, events after it are held back (counted in `held`) so the list keeps still.
 */
export function useEventTail(filter: TailFilter, pausedAt: number | null) {
  const reload = useAtomValue(listsReloadAtom);
  const pushed = useAtomValue(pushedEventsAtom);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  /** Events the server said pass a filter the page cannot check itself (an actor's email). */
  const [asked, setAsked] = useState<{ events: LogEvent[]; upTo: number }>({ events: [], upTo: 0 });
  const [older, setOlder] = useState<{ loading: boolean; error: string | null }>({ loading: false, error: null });

  const load = useCallback(async () => {
    const page = await getEventsNewestFirst(filter);
    setLoaded({ events: page.events, next: page.next, head: page.head });
    setAsked({ events: [], upTo: page.head });
    // Events after the head come by push, or by the socket's catch-up if it was not connected yet.
    noteListRead(page.head);
  }, [filter]);
  const state = useLoad(load, reload);

  const head = loaded?.head ?? Infinity;
  const fresh = useMemo(() => pushed.filter((e) => e.position > head && matchesFilter(e, filter) === true), [pushed, head, filter]);

  // A push the page cannot judge: ask the server which of the events since the last answer pass.
  const unjudged = useMemo(
    () => pushed.some((e) => e.position > Math.max(head, asked.upTo) && matchesFilter(e, filter) === undefined),
    [pushed, head, asked.upTo, filter],
  );
  useEffect(() => {
    if (!unjudged || !loaded) return;
    let alive = true;
    const from = Math.max(loaded.head, asked.upTo);
    getEventsAfter(filter, from).then(
      (page) => {
        if (!alive) return;
        const last = page.events.at(-1)?.position ?? from;
        setAsked((a) => ({ events: [...a.events, ...page.events], upTo: Math.max(a.upTo, page.next ?? Math.max(last, page.head)) }));
      },
      (error: unknown) => logFailure(error),
    );
    return () => {
      alive = false;
    };
  }, [unjudged, loaded, asked.upTo, filter]);

  const all = useMemo(() => {
    const byPosition = new Map<number, LogEvent>();
    for (const e of [...fresh, ...asked.events, ...(loaded?.events ?? [])]) byPosition.set(e.position, e);
    return [...byPosition.values()].sort(newestFirst);
  }, [fresh, asked.events, loaded]);

  const events = useMemo(() => (pausedAt === null ? all : all.filter((e) => e.position <= pausedAt)), [all, pausedAt]);

  const loadOlder = useCallback(async () => {
    if (!loaded || loaded.next === null) return;
    setOlder({ loading: true, error: null });
    try {
      const page = await getEventsNewestFirst(filter, loaded.next);
      // Only onto the list it was asked for: loaded again meanwhile (the filter changed, a
      // reload), the older page belongs to a list no longer shown, and its cursor with it.
      setLoaded((l) => (l === loaded ? { ...l, events: [...l.events, ...page.events], next: page.next } : l));
      setOlder({ loading: false, error: null });
    } catch (error) {
      setOlder({ loading: false, error: errorMessage(error) });
    }
  }, [filter, loaded]);

  return {
    ...state,
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
