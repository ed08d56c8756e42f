/** Named schema definitions of `coordination.k8s.io/v1` Lease. */

import { kindSchema, listSchema } from "../../apps/v1/schema-helpers.ts";
import { int32, obj, str } from "../../schema/builders.ts";
import { type Definitions, ref, type Schema } from "../../schema/schema.ts";

/** `io.k8s.api.coordination.v1.<name>`. */
export function coordinationName(name: string): string {
  return `io.k8s.api.coordination.v1.${name}`;
}

function microTime(description: string): Schema {
  return { type: "string", format: "date-time", description };
}

const gv = { group: "coordination.k8s.io", version: "v1" };

export const coordinationV1Definitions: Definitions = {
  [coordinationName("Lease")]: kindSchema(
    { ...gv, kind: "Lease" },
    "Lease defines a lease concept.",
    { spec: ref(coordinationName("LeaseSpec"), "spec contains the specification of the Lease.") },
  ),
  [coordinationName("LeaseList")]: listSchema(
    { ...gv, kind: "LeaseList" },
    coordinationName("Lease"),
  ),
  [coordinationName("LeaseSpec")]: obj(
    {
      holderIdentity: str("holderIdentity contains the identity of the holder of a current lease."),
      leaseDurationSeconds: int32(
        "leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it. This is measured against the time of last observed renewTime.",
      ),
      acquireTime: microTime("acquireTime is a time when the current lease was acquired."),
      renewTime: microTime(
        "renewTime is a time when the current holder of a lease has last updated the lease.",
      ),
      leaseTransitions: int32(
        "leaseTransitions is the number of transitions of a lease between holders.",
      ),
      strategy: str(
        "Strategy indicates the strategy for picking the leader for coordinated leader election.",
      ),
      preferredHolder: str(
        "PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up.",
      ),
    },
    { description: "LeaseSpec is a specification of a Lease." },
  ),
};
