/**
 * component-base's leader election metric on a prom-client registry:
 * `leader_election_master_status{name}`, 1 while this process holds the named lease, 0 while it
 * is a follower (the election switches it off at start, on when it acquires the lease).
 */
import { Gauge, type Registry } from "prom-client";
import type { LeaderMetrics } from "../client/index.ts";

export function newLeaderElectionMetrics(registry: Registry): LeaderMetrics {
  const status = new Gauge({
    name: "leader_election_master_status",
    help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
    labelNames: ["name"],
    registers: [registry],
  });
  return {
    leaderOn: (name) => status.set({ name }, 1),
    leaderOff: (name) => status.set({ name }, 0),
  };
}
