/** The path and query of a request, as the WHATWG URL parser reads its request target. */
export interface RequestTarget {
  /** The URL's pathname: dot segments resolved, percent-escapes kept as sent. */
  readonly pathname: string;
  readonly query: URLSearchParams;
}

/** What relative targets resolve against; only the path and query are used. */
const base = "http://gantry.local";

/**
 * A path the URL parser returns unchanged: one leading `/` (`//host` would name a host), and only
 * characters it neither escapes nor treats specially (no `%`, `\`, spaces, controls, non-ASCII).
 */
const plainPath = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
/** A `.` or `..` segment, which the URL parser resolves away. */
const dotSegment = /(?:^|\/)\.\.?(?:\/|$)/;
/**
 * A query the URL parser passes to `searchParams` with nothing that decodes differently:
 * printable ASCII without `#` (what it escapes, such as `"` or `'`, decodes back to itself).
 */
const plainQuery = /^[\x21\x22\x24-\x7e]*$/;

/**
 * Splits a request target into its path and query exactly as `new URL(target, base)` does, or
 * `undefined` when no URL parser accepts it. The common target (`/api/v1/…?a=b`) is split
 * directly, without running the URL parser; anything else goes through it.
 */
export function parseRequestTarget(target: string): RequestTarget | undefined {
  const mark = target.indexOf("?");
  const path = mark < 0 ? target : target.slice(0, mark);
  const search = mark < 0 ? "" : target.slice(mark + 1);
  if (plainPath.test(path) && !dotSegment.test(path) && plainQuery.test(search)) {
    return { pathname: path, query: new URLSearchParams(search) };
  }
  if (!URL.canParse(target, base)) return undefined;
  const url = new URL(target, base);
  return { pathname: url.pathname, query: url.searchParams };
}
