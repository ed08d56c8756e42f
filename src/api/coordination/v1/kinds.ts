/** The `coordination.k8s.io/v1` KindDefinitions. */
import { externalDefinitions } from "../../apps/v1/core-adapter.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import type { Lease } from "./lease.ts";
import { validateLease, validateLeaseUpdate } from "./lease-validation.ts";
import { coordinationName, coordinationV1Definitions } from "./schema.ts";

const definitions = { ...externalDefinitions(), ...coordinationV1Definitions };

export const leaseKind: KindDefinition<Lease> = {
  group: "coordination.k8s.io",
  version: "v1",
  kind: "Lease",
  listKind: "LeaseList",
  resource: "leases",
  singular: "lease",
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: allVerbs,
  schema: { schema: coordinationV1Definitions[coordinationName("Lease")] ?? {}, definitions },
  // Leases have no status; every spec write is a renewal, and upstream does not bump generation.
  tracksGeneration: false,
  subresources: { status: false },
  applyDefaults: () => {},
  validate: validateLease,
  validateUpdate: validateLeaseUpdate,
};

/** Every served `coordination.k8s.io/v1` kind. */
export const coordinationV1Kinds = [leaseKind] as const;
