// The public surface of coordination.k8s.io/v1.
export { coordinationV1Kinds, leaseKind } from "./kinds.ts";
export type { Lease, LeaseSpec } from "./lease.ts";
export { validateLease, validateLeaseSpec, validateLeaseUpdate } from "./lease-validation.ts";
export { coordinationName, coordinationV1Definitions } from "./schema.ts";
