import { Counter, type Registry } from "prom-client";
import type { AuditLevel } from "./policy.ts";

/** What the audit code counts, under upstream's metric names. */
export interface AuditMetrics {
  /** A request's policy level (`apiserver_audit_level_total`). */
  observeLevel(level: AuditLevel): void;
  /** An event buffered for the log (`apiserver_audit_event_total`) or dropped (`…_error_total`). */
  observe(outcome: "buffered" | "dropped"): void;
  /** A failed write of the log (`apiserver_audit_error_total{plugin="log"}`). */
  writeFailed(): void;
}

/** Creates the audit metrics on `registry`. */
export function newAuditMetrics(registry: Registry): AuditMetrics {
  const levelCounts = new Map<AuditLevel, number>();
  new Counter({
    name: "apiserver_audit_level_total",
    help: "Counter of policy levels for audit events (1 per request).",
    labelNames: ["level"],
    registers: [registry],
    collect() {
      for (const [level, count] of levelCounts) {
        if (count === 0) continue;
        this.inc({ level }, count);
        levelCounts.set(level, 0);
      }
    },
  });
  let pendingEvents = 0;
  new Counter({
    name: "apiserver_audit_event_total",
    help: "Counter of audit events generated and sent to the audit backend.",
    registers: [registry],
    collect() {
      if (pendingEvents === 0) return;
      this.inc(pendingEvents);
      pendingEvents = 0;
    },
  });
  const errors = new Counter({
    name: "apiserver_audit_error_total",
    help: "Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.",
    labelNames: ["plugin"],
    registers: [registry],
  });
  return {
    observeLevel(level) {
      levelCounts.set(level, (levelCounts.get(level) ?? 0) + 1);
    },
    observe(outcome) {
      if (outcome === "buffered") pendingEvents++;
      else errors.inc({ plugin: "log" });
    },
    writeFailed() {
      errors.inc({ plugin: "log" });
    },
  };
}
