/** The Node kind. */
import { type FieldErrorList, forbiddenField } from "../../meta/field-errors.ts";
import { FieldPath } from "../../meta/field-path.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../validation/meta.ts";
import { canonicalizeQuantities, coreSchemaRoot } from "./kind-helpers.ts";
import type { Node } from "./node-types.ts";
import { parseQuantityField, validateResourceQuantityValue } from "./resource-validation.ts";
import { validateNodeTaints } from "./scheduling-validation.ts";

export type {
  Node,
  NodeAddress,
  NodeCondition,
  NodeSpec,
  NodeStatus,
  NodeSystemInfo,
  Taint,
} from "./node-types.ts";

/** `SetDefaults_NodeStatus`: allocatable defaults to capacity; quantities canonical. */
export function applyNodeDefaults(node: Node): void {
  node.spec ??= {};
  const status = node.status;
  if (status === undefined) return;
  canonicalizeQuantities(status.capacity);
  canonicalizeQuantities(status.allocatable);
  if (status.allocatable === undefined && status.capacity !== undefined) {
    status.allocatable = { ...status.capacity };
  }
}

function validateNodeResources(node: Node): FieldErrorList {
  const errs: FieldErrorList = [];
  for (const field of ["capacity", "allocatable"] as const) {
    for (const [name, text] of Object.entries(node.status?.[field] ?? {})) {
      const p = FieldPath.of("status", field).key(name);
      const q = parseQuantityField(text, p, errs);
      if (q !== undefined) errs.push(...validateResourceQuantityValue(name, q, p));
    }
  }
  return errs;
}

/** `ValidateNode`. */
export function validateNode(node: Node): FieldErrorList {
  const errs = validateObjectMeta(node.metadata, { namespaced: false }, FieldPath.of("metadata"));
  errs.push(...validateNodeTaints(node.spec?.taints, FieldPath.of("spec", "taints")));
  errs.push(...validateNodeResources(node));
  return errs;
}

/** `ValidateNodeUpdate`: podCIDR(s) and providerID may only go from unset to set. */
export function validateNodeUpdate(node: Node, old: Node): FieldErrorList {
  const errs = validateObjectMetaUpdate(node.metadata, old.metadata, FieldPath.of("metadata"));
  errs.push(...validateNodeTaints(node.spec?.taints, FieldPath.of("spec", "taints")));
  errs.push(...validateNodeResources(node));
  const oldCidrs = old.spec?.podCIDRs ?? [];
  if (
    oldCidrs.length > 0 &&
    JSON.stringify(oldCidrs) !== JSON.stringify(node.spec?.podCIDRs ?? [])
  ) {
    errs.push(
      forbiddenField(
        FieldPath.of("spec", "podCIDRs"),
        'node updates may not change podCIDR except from "" to valid',
      ),
    );
  }
  const oldProvider = old.spec?.providerID ?? "";
  if (oldProvider !== "" && oldProvider !== (node.spec?.providerID ?? "")) {
    errs.push(
      forbiddenField(
        FieldPath.of("spec", "providerID"),
        'node updates may not change providerID except from "" to valid',
      ),
    );
  }
  return errs;
}

export const nodeKind: KindDefinition<Node> = {
  group: "",
  version: "v1",
  kind: "Node",
  listKind: "NodeList",
  resource: "nodes",
  singular: "node",
  namespaced: false,
  shortNames: ["no"],
  categories: [],
  verbs: allVerbs,
  schema: coreSchemaRoot("Node"),
  tracksGeneration: false,
  subresources: { status: true },
  applyDefaults: applyNodeDefaults,
  validate: validateNode,
  validateUpdate: validateNodeUpdate,
  selectableFields: (node) => ({ "spec.unschedulable": String(node.spec?.unschedulable === true) }),
};
