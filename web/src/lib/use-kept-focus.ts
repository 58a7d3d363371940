import { useEffect, type RefObject } from 'react';
import { focusHeading } from './focus-heading';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])';

/** Where the focus was in a list: the control, its row (`data-row-key`, StackTable) and cell, and what it does. */
interface Place {
  element: HTMLElement;
  row: string | null;
  rowIndex: number;
  column: number;
  /** The first word of the control's name ("Delete", "Verify", "Withdraw"): the same action in another row. */
  verb: string;
}

const verbOf = (el: HTMLElement) => (el.getAttribute('aria-label') || el.textContent || '').trim().split(/\s+/)[0] ?? '';
const focusLost = () => !document.activeElement || document.activeElement === document.body;

function placeOf(section: HTMLElement, element: HTMLElement): Place {
  const cell = element.closest('td');
  const row = cell?.parentElement;
  const key = row instanceof HTMLTableRowElement && section.contains(row) ? (row.dataset.rowKey ?? null) : null;
  const rows = key === null ? [] : [...section.querySelectorAll('tr[data-row-key]')];
  return { element, row: key, rowIndex: rows.indexOf(row!), column: cell?.cellIndex ?? -1, verb: verbOf(element) };
}

/**
 * Where the focus goes when the control that had it goes away with what it did (Delete removes
 * its row, Verify turns into "Approved", Cancel into the booking's outcome): not to the page's
 * top, where a keyboard or screen reader user would have to find their way back, but
 *  - to what the row says now, when the row stays and marks it (`data-row-focus`);
 *  - else to the same action in the row now in its place, or the next row that has it (the next
 *    seller waiting for approval), or the one before;
 *  - else to the page's heading.
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
    const restore = () => {
      frame = 0;
      const place = last;
      if (!place || place.element.isConnected || !focusLost()) return;
      last = null;
      const rows = [...section.querySelectorAll<HTMLTableRowElement>('tr[data-row-key]')];
      const same = place.row === null ? -1 : rows.findIndex((r) => r.dataset.rowKey === place.row);
      const kept = same >= 0 ? rows[same]!.querySelector<HTMLElement>('[data-row-focus]') : null;
      if (kept) return kept.focus();
      if (place.row !== null && place.column >= 0) {
        const from = same >= 0 ? same : Math.min(place.rowIndex, rows.length);
        for (const row of [...rows.slice(from), ...rows.slice(0, from).reverse()]) {
          const cell = row.cells[place.column];
          const control = cell && [...cell.querySelectorAll<HTMLElement>(FOCUSABLE)].find((el) => verbOf(el) === place.verb);
          if (control) return control.focus();
        }
      }
      focusHeading(section);
    };
    // After the change has rendered, and after anything the page does itself on the same frame.
    const observer = new MutationObserver(() => {
      if (last && !last.element.isConnected && !frame) frame = requestAnimationFrame(restore);
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
