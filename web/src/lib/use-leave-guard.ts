import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router-dom';

/**
 * Asks before a page with unsaved work is left: a link or Back in the app (the router's blocker,
 * with the browser's confirm), or a reload or a closed tab (the browser's own prompt, in its own
 * words). `unsaved` says, at the moment of leaving, whether anything would be lost (a form holding
 * what was typed and then typed back loses nothing). The page sets the answer's `current` once it
 * has saved, before it moves on by itself. Unmounted (the page gave way to a notice, or the
 * session ended and the app sends the visitor to sign in), it asks nothing.
 */
export function useLeaveGuard(unsaved: () => boolean) {
  const check = useRef(unsaved);
  useEffect(() => {
    check.current = unsaved;
  });
  const done = useRef(false);
  const asks = () => !done.current && check.current();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && asks());
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (!window.confirm('Leave this page? Your changes are not saved.')) return blocker.reset();
    // Let go: the form stays on screen until the next page's code is in, and a reload then (a
    // deploy replaced that code) or another click must not ask again.
    done.current = true;
    blocker.proceed();
  }, [blocker]);
  useEffect(() => {
    const leaving = (event: BeforeUnloadEvent) => {
      if (!asks()) return;
      event.preventDefault();
      // Older browsers (Chrome before 119, some Android web views) ask only when this is set.
      event.returnValue = '';
    };
    addEventListener('beforeunload', leaving);
    return () => removeEventListener('beforeunload', leaving);
  }, []);
  return done;
}
