import type { AdminOverview } from '@tv-shop/contracts';
import { useAtomValue } from 'jotai';
import { useCallback, useMemo, useState } from 'react';
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
      setOverview(await getOverview());
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
