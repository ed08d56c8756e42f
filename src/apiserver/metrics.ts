import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/** The API server's Prometheus metrics, on a registry of their own (no global state). */
export interface ApiServerMetrics {
  readonly registry: Registry;
  observeRequest(
    verb: string,
    resource: string,
    subresource: string,
    code: number,
    seconds: number,
  ): void;
  /** A request the in-flight limiter turned away with a 429. */
  observeDropped(requestKind: "readOnly" | "mutating"): void;
}

interface RequestLabels {
  readonly verb: string;
  readonly resource: string;
  readonly subresource: string;
  readonly code: string;
}

/** The HTTP verbs upstream's installer registers routes with, by request-info verb. */
const routeVerbs: Readonly<Record<string, string>> = {
  create: "POST",
  update: "PUT",
  patch: "PATCH",
  get: "GET",
  list: "LIST",
  watch: "WATCH",
  delete: "DELETE",
  deletecollection: "DELETECOLLECTION",
};

/** Subresources upstream reports as CONNECT (its `validConnectRequests`). */
const connectSubresources = new Set(["attach", "exec", "log", "portforward", "proxy"]);

/**
 * The `verb` label of a request, as upstream's `CleanVerb` reports it: the route's HTTP verb
 * (`POST` for a create, `PUT` for an update, `LIST` and `WATCH` apart from `GET`), `APPLY` for a
 * server-side apply patch, `CONNECT` for proxy, exec, attach, port-forward and log; a
 * non-resource request keeps its method.
 */
export function reportedVerb(
  verb: string,
  subresource: string,
  contentType: string | undefined,
): string {
  if (connectSubresources.has(subresource)) return "CONNECT";
  if (
    verb === "patch" &&
    (contentType ?? "").split(";")[0]?.trim() === "application/apply-patch+yaml"
  ) {
    return "APPLY";
  }
  return routeVerbs[verb] ?? verb.toUpperCase();
}

/** What the metrics read at scrape time. */
export interface ApiServerMetricsSources {
  /** Requests holding an in-flight seat now, per kind. */
  readonly inFlight: () => Readonly<Record<"readOnly" | "mutating", number>>;
}

/** Creates the metrics on `registry`, as upstream names them. */
export function newApiServerMetrics(
  registry: Registry,
  sources: ApiServerMetricsSources = { inFlight: () => ({ readOnly: 0, mutating: 0 }) },
): ApiServerMetrics {
  // Requests are counted here per label set and handed to the counter when it is scraped:
  // a request then costs one map lookup instead of building, validating and hashing labels.
  const counts = new Map<string, { readonly labels: RequestLabels; pending: number }>();
  new Counter({
    name: "apiserver_request_total",
    help: "Counter of apiserver requests broken out for each verb, group, version, resource, subresource and HTTP response code.",
    labelNames: ["verb", "resource", "subresource", "code"],
    registers: [registry],
    collect() {
      for (const entry of counts.values()) {
        if (entry.pending === 0) continue;
        this.inc(entry.labels, entry.pending);
        entry.pending = 0;
      }
    },
  });
  // The histogram's bound `observe` per label set, made once.
  const observers = new Map<string, (seconds: number) => void>();
  const durations = new Histogram({
    name: "apiserver_request_duration_seconds",
    help: "Response latency distribution in seconds for each verb, resource and subresource.",
    labelNames: ["verb", "resource", "subresource"],
    buckets: [
      0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30,
      45, 60,
    ],
    registers: [registry],
  });
  const dropped = new Counter({
    name: "apiserver_dropped_requests_total",
    help: "Number of requests dropped with 'Try again later' response",
    labelNames: ["request_kind"],
    registers: [registry],
  });
  new Gauge({
    name: "apiserver_current_inflight_requests",
    help: "Number of currently used inflight request limit of this apiserver per request kind.",
    labelNames: ["request_kind"],
    registers: [registry],
    collect() {
      const now = sources.inFlight();
      this.set({ request_kind: "readOnly" }, now.readOnly);
      this.set({ request_kind: "mutating" }, now.mutating);
    },
  });
  return {
    registry,
    observeRequest(verb, resource, subresource, code, seconds) {
      const series = `${verb}\u0000${resource}\u0000${subresource}`;
      const key = `${series}\u0000${code}`;
      let entry = counts.get(key);
      if (entry === undefined) {
        const labels = { verb, resource, subresource, code: String(code) };
        entry = { labels, pending: 0 };
        counts.set(key, entry);
      }
      entry.pending++;
      if (verb === "WATCH") return;
      let observe = observers.get(series);
      if (observe === undefined) {
        observe = durations.labels({ verb, resource, subresource }).observe;
        observers.set(series, observe);
      }
      observe(seconds);
    },
    observeDropped(requestKind) {
      dropped.inc({ request_kind: requestKind });
    },
  };
}
