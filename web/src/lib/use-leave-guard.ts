import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router-dom';

/**
 * Asks before a page with unsaved work is left: a link or Back in the app (the router's blocker,
 * with the browser's confirm), or a reload or a closed tab (the browser's own prompt, in its own
 * words). The page sets `current` on the answer: true once its work differs from what is saved,
 * false once saved, before it moves on by itself. It is read at the moment of leaving, so a save
 * that navigates away is never asked about. Unmounted (the page gave way to a notice, or the
 * session ended and the app sends the visitor to sign in), it asks nothing.
 */
export function useLeaveGuard() {
  const unsaved = useRef(false);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => unsaved.current && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state === 'blocked') (window.confirm('Leave this page? Your changes are not saved.') ? blocker.proceed : blocker.reset)();
  }, [blocker]);
  useEffect(() => {
    const leaving = (event: BeforeUnloadEvent) => unsaved.current && event.preventDefault();
    addEventListener('beforeunload', leaving);
    return () => removeEventListener('beforeunload', leaving);
  }, []);
  return unsaved;
}
