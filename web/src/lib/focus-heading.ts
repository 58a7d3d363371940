/**
 * Moves the focus to the first `h1` in `root` (made focusable by script only, not a tab stop),
 * without scrolling: where the focus goes when what had it went away with the page or the row.
 * Answers false when `root` has no heading yet.
 */
export function focusHeading(root: ParentNode): boolean {
  const heading = root.querySelector('h1');
  if (!heading) return false;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
  return true;
}
