import { Counter, Histogram, type Registry } from "prom-client";

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
}

/** Creates the metrics on `registry`, as upstream names them. */
export function newApiServerMetrics(registry: Registry): ApiServerMetrics {
  const requests = new Counter({
    name: "apiserver_request_total",
    help: "Counter of apiserver requests broken out for each verb, group, version, resource, subresource and HTTP response code.",
    labelNames: ["verb", "resource", "subresource", "code"],
    registers: [registry],
  });
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
  return {
    registry,
    observeRequest(verb, resource, subresource, code, seconds) {
      requests.inc({ verb: verb.toUpperCase(), resource, subresource, code: String(code) });
      if (verb !== "watch")
        durations.observe({ verb: verb.toUpperCase(), resource, subresource }, seconds);
    },
  };
}
