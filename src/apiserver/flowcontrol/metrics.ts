import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { Classification, FlowController, FlowControlObserver } from "./flow-controller.ts";
import type { RejectReason } from "./queue-set.ts";

/** Upstream's buckets for `apiserver_flowcontrol_request_wait_duration_seconds`. */
const waitBuckets = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];

/**
 * Priority and fairness metrics under upstream's names: requests waiting and executing per
 * priority level and flow schema, seats per level, rejections by reason, dispatches and the
 * time requests waited. Returns the observer to give the flow controller; `controller` is read at
 * scrape time (it is created after the observer, so it comes as a getter).
 */
export function newFlowControlMetrics(
  registry: Registry,
  controller: () => FlowController | undefined,
): FlowControlObserver {
  const labelNames = ["priority_level", "flow_schema"] as const;
  new Gauge({
    name: "apiserver_flowcontrol_current_inqueue_requests",
    help: "Number of requests currently pending in queues of the API Priority and Fairness subsystem",
    labelNames,
    registers: [registry],
    collect() {
      for (const c of controller()?.flowSchemaCounts() ?? []) {
        this.set({ priority_level: c.priorityLevel, flow_schema: c.flowSchema }, c.waiting);
      }
    },
  });
  new Gauge({
    name: "apiserver_flowcontrol_current_executing_requests",
    help: "Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem",
    labelNames,
    registers: [registry],
    collect() {
      for (const c of controller()?.flowSchemaCounts() ?? []) {
        this.set({ priority_level: c.priorityLevel, flow_schema: c.flowSchema }, c.executing);
      }
    },
  });
  new Gauge({
    name: "apiserver_flowcontrol_nominal_limit_seats",
    help: "Nominal number of execution seats configured for each priority level",
    labelNames: ["priority_level"],
    registers: [registry],
    collect() {
      for (const level of controller()?.priorityLevels() ?? []) {
        this.set({ priority_level: level.name }, level.seats);
      }
    },
  });
  const rejected = new Counter({
    name: "apiserver_flowcontrol_rejected_requests_total",
    help: "Number of requests rejected by API Priority and Fairness subsystem",
    labelNames: ["priority_level", "flow_schema", "reason"],
    registers: [registry],
  });
  // Dispatches are counted per classification and handed over when scraped: one map lookup per
  // request instead of building and hashing labels.
  const dispatchedCounts = new Map<Classification, number>();
  new Counter({
    name: "apiserver_flowcontrol_dispatched_requests_total",
    help: "Number of requests executed by API Priority and Fairness subsystem",
    labelNames,
    registers: [registry],
    collect() {
      for (const [c, count] of dispatchedCounts) {
        if (count === 0) continue;
        this.inc({ priority_level: c.priorityLevel, flow_schema: c.flowSchema }, count);
        dispatchedCounts.set(c, 0);
      }
    },
  });
  const waits = new Histogram({
    name: "apiserver_flowcontrol_request_wait_duration_seconds",
    help: "Length of time a request spent waiting in its queue",
    labelNames: ["priority_level", "flow_schema", "execute"],
    buckets: waitBuckets,
    registers: [registry],
  });
  const observers = new Map<Classification, (seconds: number) => void>();
  const labelsOf = (c: Classification) => ({
    priority_level: c.priorityLevel,
    flow_schema: c.flowSchema,
  });
  return {
    dispatched(classification, waitSeconds) {
      dispatchedCounts.set(classification, (dispatchedCounts.get(classification) ?? 0) + 1);
      let observe = observers.get(classification);
      if (observe === undefined) {
        observe = waits.labels({ ...labelsOf(classification), execute: "true" }).observe;
        observers.set(classification, observe);
      }
      observe(waitSeconds);
    },
    rejected(classification, reason: RejectReason, waitSeconds) {
      rejected.inc({ ...labelsOf(classification), reason });
      waits.observe({ ...labelsOf(classification), execute: "false" }, waitSeconds);
    },
  };
}
