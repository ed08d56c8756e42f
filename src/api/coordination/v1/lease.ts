/** Wire types of `coordination.k8s.io/v1` Lease, mirroring the JSON exactly. */
import type { ObjectMeta } from "../../meta/types.ts";

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  /** A MicroTime: RFC 3339 with microseconds. */
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
  /** Coordinated leader election strategy, e.g. `OldestEmulationVersion`. */
  strategy?: string;
  preferredHolder?: string;
}

export interface Lease {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: LeaseSpec;
  [field: string]: unknown;
}
