/** Whether the focus is nowhere (on the page's body): what had it went away with what it did. */
export const focusLost = () => !document.activeElement || document.activeElement === document.body;

/**
 * Moves the focus to the first `h1` in `root` (made focusable by script only, not a tab stop),
 * without scrolling: where the focus goes when what had it went away with the page or the row.
 * Answers false when `root` has no heading yet.
 */
export function focusHeading(root: ParentNode): boolean {
  const heading = root.querySelector('h1');
  if (!heading) return false;
  focusUnlisted(heading);
  return true;
}

/** Focuses `el` without scrolling, made focusable by script only (not a tab stop) when it is not already. */
export function focusUnlisted(el: HTMLElement): void {
  if (!el.hasAttribute('tabindex')) el.tabIndex = -1;
  el.focus({ preventScroll: true });
}
