/** The Binding kind (`pods/binding` and the legacy `bindings` resource). */
import { type FieldErrorList, notSupported, required } from "../../meta/field-errors.ts";
import { FieldPath } from "../../meta/field-path.ts";
import type { KubeObject } from "../../meta/types.ts";
import type { KindDefinition } from "../../scheme.ts";
import type { ObjectReference } from "./event.ts";
import { coreSchemaRoot } from "./kind-helpers.ts";

export interface Binding extends KubeObject {
  target: ObjectReference;
}

/** `ValidatePodBinding`: the target is a Node (or kind empty) with a name. */
export function validateBinding(binding: Binding): FieldErrorList {
  const errs: FieldErrorList = [];
  const kind = binding.target?.kind ?? "";
  if (kind !== "" && kind !== "Node") {
    errs.push(notSupported(FieldPath.of("target", "kind"), kind, ["Node", "<empty>"]));
  }
  if ((binding.target?.name ?? "") === "") errs.push(required(FieldPath.of("target", "name")));
  return errs;
}

export const bindingKind: KindDefinition<Binding> = {
  group: "",
  version: "v1",
  kind: "Binding",
  listKind: "BindingList",
  resource: "bindings",
  singular: "binding",
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: ["create"],
  schema: coreSchemaRoot("Binding"),
  tracksGeneration: false,
  subresources: { status: false },
  applyDefaults: () => {},
  validate: validateBinding,
  validateUpdate: validateBinding,
};
