import { useEffect, type RefObject } from 'react';
import { focusHeading, focusLost, focusUnlisted } from './focus-heading';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])';

/** Where the focus was in a list: the control, its row (`data-row-key`, StackTable) and cell, and what it does. */
interface Place {
  element: HTMLElement;
  row: HTMLTableRowElement | null;
  column: number;
  /** The first word of a button's name ("Delete", "Verify", "Withdraw"): the same action in another row. */
  verb: string;
  /** Once its row has gone: the row that came after it (or before it, when it was the last). */
  neighbour: Node | null;
}

const verbOf = (el: HTMLElement) => (el.getAttribute('aria-label') || el.textContent || '').trim().split(/\s+/)[0] ?? '';

function placeOf(section: HTMLElement, element: HTMLElement): Place {
  const cell = element.closest('td');
  const row = cell?.parentElement;
  const inList = row instanceof HTMLTableRowElement && row.dataset.rowKey !== undefined && section.contains(row);
  return { element, row: inList ? row : null, column: inList ? cell!.cellIndex : -1, verb: verbOf(element), neighbour: null };
}

/** The same action as `place`'s in `row`, in the same column: a button with the same verb, or a link for a link. */
function sameAction(place: Place, row: HTMLTableRowElement): HTMLElement | undefined {
  const controls = [...(row.cells[place.column]?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
  if (place.element instanceof HTMLAnchorElement) return controls.find((el) => el instanceof HTMLAnchorElement);
  return place.verb ? controls.find((el) => !(el instanceof HTMLAnchorElement) && verbOf(el) === place.verb) : undefined;
}

/**
 * Where the focus goes when the control that had it goes away with what it did (Delete removes
 * its row, Verify turns into "Approved", Cancel into the booking's outcome), rather than to the
 * page's top, where a keyboard or screen reader user would have to find their way back:
 *  - while its row stays: to what the row says now, which the list marks (`data-row-focus`, in
 *    the same cell first), or the same action in that row (Make Sold turned Make Available);
 *    never to another row, whose button may act at once (Verify asks nothing);
 *  - once its row has gone: to the same action in the row now in its place (or, for the last
 *    row, the one before), then in the rows after it, then before it; for a link, the link in
 *    the same column;
 *  - else to what an emptied list says (`.empty-text`), or the page's heading.
 * Only when the focus was lost (on the page's body): someone who moved on keeps their place.
 */
export function useKeptFocus(root: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const section = root.current;
    if (!section) return;
    let last: Place | null = null;
    let frame = 0;

    const onFocusIn = (e: FocusEvent) => {
      if (e.target instanceof HTMLElement && e.target !== section) last = placeOf(section, e.target);
    };
    // A press on the page outside anything focusable: nothing to put back later. (Not on
    // focusout: Chrome sends that too as it removes the focused control, still connected.)
    const onPointerDown = (e: PointerEvent) => {
      if (!(e.target instanceof Element && e.target.closest(FOCUSABLE))) last = null;
    };
    const target = (place: Place): HTMLElement | null => {
      if (place.row?.isConnected) {
        const cell = place.row.cells[place.column];
        return (
          cell?.querySelector<HTMLElement>('[data-row-focus]') ??
          place.row.querySelector<HTMLElement>('[data-row-focus]') ??
          sameAction(place, place.row) ??
          null
        );
      }
      if (place.row && place.neighbour instanceof HTMLTableRowElement && place.neighbour.isConnected) {
        const rows = [...section.querySelectorAll<HTMLTableRowElement>('tr[data-row-key]')];
        const from = rows.indexOf(place.neighbour);
        for (const row of [...rows.slice(from), ...rows.slice(0, from).reverse()]) {
          const control = sameAction(place, row);
          if (control) return control;
        }
      }
      return null;
    };
    const restore = () => {
      frame = 0;
      const place = last;
      if (!place || place.element.isConnected) return;
      last = null;
      // The focus is somewhere: whoever put it there keeps it.
      if (!focusLost()) return;
      const next = target(place);
      if (next) return next.focus();
      const empty = section.querySelector<HTMLElement>('.empty-text');
      if (empty) focusUnlisted(empty);
      else focusHeading(section);
    };
    // After the change has rendered, and after anything the page does itself on the same frame.
    const observer = new MutationObserver((records) => {
      const place = last;
      if (!place || place.element.isConnected) return;
      // Where the row was, noted while the removal is at hand (rows above it may come and go before the frame).
      if (place.row && !place.neighbour) {
        const removal = records.find((r) => [...r.removedNodes].some((n) => n === place.row));
        if (removal) place.neighbour = removal.nextSibling ?? removal.previousSibling;
      }
      if (!frame) frame = requestAnimationFrame(restore);
    });
    section.addEventListener('focusin', onFocusIn);
    document.addEventListener('pointerdown', onPointerDown, true);
    observer.observe(section, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
      section.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('pointerdown', onPointerDown, true);
    };
  }, [root]);
}
