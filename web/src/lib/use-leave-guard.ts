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
    if (blocker.state !== 'blocked') return;
    if (!window.confirm('Leave this page? Your changes are not saved.')) return blocker.reset();
    // Let go: the form stays on screen until the next page's code is in, and a reload then (a
    // deploy replaced that code) or another click must not ask again.
    unsaved.current = false;
    blocker.proceed();
  }, [blocker]);
  useEffect(() => {
    const leaving = (event: BeforeUnloadEvent) => {
      if (!unsaved.current) return;
      event.preventDefault();
      // Older browsers (Chrome before 119, some Android web views) ask only when this is set.
      event.returnValue = '';
    };
    addEventListener('beforeunload', leaving);
    return () => removeEventListener('beforeunload', leaving);
  }, []);
  return unsaved;
}
