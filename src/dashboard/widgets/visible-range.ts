/** Which rows of a fixed-height list a viewport shows, with a few more on each side. */

/** Rows drawn beyond each edge of the viewport, so fast scrolling shows no gap. */
export const overscanRows = 8;

/** The half-open range [first, last) of rows to draw. */
export function visibleRange(
  count: number,
  rowHeight: number,
  scrollTop: number,
  viewportHeight: number,
): { first: number; last: number } {
  if (count === 0 || rowHeight <= 0) return { first: 0, last: 0 };
  const top = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const shown = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  const first = Math.max(0, Math.min(count - 1, top) - overscanRows);
  const last = Math.min(count, top + shown + overscanRows);
  return { first, last };
}
