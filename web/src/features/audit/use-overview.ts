import type { AdminOverview } from '@tv-shop/contracts';
import { useAtomValue } from 'jotai';
import { useCallback, useMemo, useState } from 'react';
import { noteListRead } from '@/lib/live-socket';
import { useLoad } from '@/lib/use-load';
import { listsReloadAtom } from '@/lib/use-live-list';
import { getOverview } from './api/get-overview';
import { pushedDaysAtom, pushedEventsAtom } from './atoms';
import { mergeOverview } from './merge-overview';

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
  return { overview: live, refresh, refreshing, ...state };
}
