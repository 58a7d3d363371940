import type { AdminOverview } from '@tv-shop/contracts';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { noteListRead } from '@/lib/live-socket';
import { useLoad } from '@/lib/use-load';
import { listsReloadAtom } from '@/lib/use-live-list';
import { getOverview } from './api/get-overview';
import { pushedDaysAtom, pushedEventsAtom } from './atoms';
import { skipsAfter } from './filter';
import { mergeOverview, pushedBefore } from './merge-overview';

/** After pushes skip positions, the overview is read again this long after. */
const SKIPPED_READ_MS = 1000;

/** GET /api/admin/overview once, then kept current by the socket's pushes; `refresh` reads it again (the lag table). */
export function useOverview() {
  const reload = useAtomValue(listsReloadAtom);
  const [refreshes, setRefreshes] = useState(0);
  const [overview, setOverview] = useState<AdminOverview | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const load = useCallback(async () => {
    setRefreshing(true);
    try {
      const overview = await getOverview();
      setOverview(overview);
      // What happens after its head comes by push, or by the socket's catch-up if it was not connected yet.
      noteListRead(overview.head);
    } finally {
      setRefreshing(false);
    }
  }, []);
  const state = useLoad(load, reload + refreshes);
  const days = useAtomValue(pushedDaysAtom);
  const pushed = useAtomValue(pushedEventsAtom);
  const live = useMemo(() => (overview ? mergeOverview(overview, days, pushed) : null), [overview, days, pushed]);
  const refresh = useCallback(() => setRefreshes((n) => n + 1), []);
  // Pushes that skip positions after the page's head (the log caught up on events too old to
  // push, ADR 0038), or a day older than the page's thirty: what only a read can say. Read again,
  // a second after the first (a long catch-up is read once a second at most, not once a batch).
  const skipped = useMemo(
    () => overview !== null && (skipsAfter(pushed, overview.head) || pushedBefore(overview, days)),
    [overview, pushed, days],
  );
  // (Not after a read that failed: the page's stale notice has the Retry.)
  const failed = state.stale !== null;
  useEffect(() => {
    if (!skipped || refreshing || failed) return;
    const soon = setTimeout(refresh, SKIPPED_READ_MS);
    return () => clearTimeout(soon);
  }, [skipped, refreshing, failed, refresh]);
  return { overview: live, refresh, refreshing, ...state };
}
