import type { DailyActivity, LogEvent } from '@tv-shop/contracts';
import { atom } from 'jotai';

/** How many pushed events this tab keeps for the event log and the overview's feed. */
export const KEEP_PUSHED = 1000;

/**
 * The log's events as the socket pushed them (admin only), newest first. Pages show these above
 * what they read, so the tail moves without asking the server again.
 */
export const pushedEventsAtom = atom<readonly LogEvent[]>([]);

export const addPushedEventAtom = atom(null, (get, set, event: LogEvent) => {
  const events = get(pushedEventsAtom);
  if (events.some((e) => e.position === event.position)) return;
  // Pushes come in log order; a catch-up after a drop may replay older ones, so keep the order by position.
  const at = events.findIndex((e) => e.position < event.position);
  const next = at === -1 ? [...events, event] : [...events.slice(0, at), event, ...events.slice(at)];
  set(pushedEventsAtom, next.slice(0, KEEP_PUSHED));
});

/** Each day's figures as last pushed, with the log position that push reflects. */
export const pushedDaysAtom = atom<ReadonlyMap<string, { row: DailyActivity; position: number }>>(new Map());

export const addPushedDayAtom = atom(null, (get, set, push: { row: DailyActivity; position: number }) => {
  const days = get(pushedDaysAtom);
  if ((days.get(push.row.day)?.position ?? -Infinity) >= push.position) return;
  set(pushedDaysAtom, new Map(days).set(push.row.day, push));
});

/** Another session in this tab (sign-out, another account) starts with nothing of the last one's. */
export const clearPushedAtom = atom(null, (_get, set) => {
  set(pushedEventsAtom, []);
  set(pushedDaysAtom, new Map());
});
