import { useLocation } from 'react-router-dom';
import { auditPaths } from './paths';

/** What a link to a stream's timeline carries in the history's state: the event log's filters. */
interface LogReturn {
  logSearch: string;
}

/**
 * The event log's filters as this page knows them (its address on the log, the state a timeline
 * was opened with elsewhere), for a link to a timeline to carry and the timeline's "← Event log"
 * to go back to: the operator returns to the log they filtered, not to all of it.
 */
export function useLogReturn(): LogReturn {
  const location = useLocation();
  if (location.pathname === auditPaths.events.path) return { logSearch: location.search };
  const carried = (location.state as Partial<LogReturn> | null)?.logSearch;
  return { logSearch: typeof carried === 'string' && carried.startsWith('?') ? carried : '' };
}
