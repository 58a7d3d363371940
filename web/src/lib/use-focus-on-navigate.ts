import { useEffect, useRef, type RefObject } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router-dom';
import { focusHeading } from './focus-heading';

/** How long a page that is still loading may take to show its heading. */
const WAIT_FOR_HEADING_MS = 5000;

/**
 * After a route change the new page starts at the top (Back and Forward keep the browser's own
 * scrolling) and focus moves to its main heading (to `main` until a loading page shows one), so a
 * screen reader announces the page instead of staying on the link that was followed. The first
 * page load is left to the browser.
 */
export function useFocusOnNavigate(main: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const shown = useRef(pathname);

  useEffect(() => {
    const root = main.current;
    if (shown.current === pathname || !root) return;
    shown.current = pathname;
    if (navigationType !== NavigationType.Pop) window.scrollTo(0, 0);

    if (focusHeading(root)) return;
    root.focus({ preventScroll: true });
    const observer = new MutationObserver(() => {
      // Someone who already moved on keeps their place.
      if (document.activeElement !== root || focusHeading(root)) observer.disconnect();
    });
    observer.observe(root, { childList: true, subtree: true });
    const timer = setTimeout(() => observer.disconnect(), WAIT_FOR_HEADING_MS);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [pathname, navigationType, main]);
}
