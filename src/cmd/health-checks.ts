/**
 * The health endpoints of a separately run component (`/healthz`, `/livez`, `/readyz`), with the
 * semantics of k8s.io/apiserver's healthz package that kube-scheduler and
 * kube-controller-manager serve: `ok` when every check passes, a list of checks with
 * `?verbose`, `?exclude=NAME` to skip one, `/<path>/<check>` for a single check, and on failure
 * a 500 listing every check with the failing ones' reasons withheld.
 */

/** One named check. Cheap, synchronous, never throws. */
export interface HealthCheck {
  readonly name: string;
  /** Undefined when healthy; otherwise why not (shown only on `/<path>/<name>`). */
  check(): string | undefined;
}

/** The answer to one request. */
export interface HealthResponse {
  readonly status: number;
  readonly body: string;
}

/** upstream's `PingHealthz`: always healthy. */
export const pingCheck: HealthCheck = { name: "ping", check: () => undefined };

/** upstream's `NewShutdownHealthz`: fails once `signal` aborted (the process is stopping). */
export function shutdownCheck(signal: AbortSignal): HealthCheck {
  return {
    name: "shutdown",
    check: () => (signal.aborted ? "process is shutting down" : undefined),
  };
}

/**
 * Answers `path` (`healthz`, `livez` or `readyz`) and its sub-paths from `checks` (read at each
 * request, so checks may be added later, as kube-controller-manager adds one per controller it
 * started). Without checks the path runs `ping`, as upstream installs it. Undefined when the
 * request is for another path, or a check of this path that does not exist (a 404).
 */
export function answerHealth(
  path: string,
  checks: () => readonly HealthCheck[],
  pathname: string,
  query: URLSearchParams,
): HealthResponse | undefined {
  const installed = checks();
  const all = installed.length === 0 ? [pingCheck] : installed;
  if (pathname === `/${path}`) return answerRoot(path, all, query);
  if (!pathname.startsWith(`/${path}/`)) return undefined;
  const name = pathname.slice(path.length + 2);
  const one = all.find((c) => c.name === name);
  if (one === undefined) return undefined;
  const failure = one.check();
  return failure === undefined
    ? { status: 200, body: "ok" }
    : { status: 500, body: `internal server error: ${failure}\n` };
}

function answerRoot(
  path: string,
  checks: readonly HealthCheck[],
  query: URLSearchParams,
): HealthResponse {
  const excluded = new Set(query.getAll("exclude"));
  const lines: string[] = [];
  let failed = false;
  for (const c of checks) {
    if (excluded.delete(c.name)) {
      lines.push(`[+]${c.name} excluded: ok`);
      continue;
    }
    if (c.check() === undefined) {
      lines.push(`[+]${c.name} ok`);
    } else {
      failed = true;
      // As upstream: the reason is for the single-check path (and the log), not this public one.
      lines.push(`[-]${c.name} failed: reason withheld`);
    }
  }
  if (excluded.size > 0) {
    const names = [...excluded]
      .sort()
      .map((n) => JSON.stringify(n))
      .join(",");
    lines.push(`warn: some health checks cannot be excluded: no matches for ${names}`);
  }
  const listing = lines.map((line) => `${line}\n`).join("");
  if (failed) return { status: 500, body: `${listing}${path} check failed\n` };
  if (!query.has("verbose")) return { status: 200, body: "ok" };
  return { status: 200, body: `${listing}${path} check passed\n` };
}
