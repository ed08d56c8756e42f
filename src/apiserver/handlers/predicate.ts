import {
  checkSelectableFields,
  defaultSelectableFields,
  type KindDefinition,
  type KubeObject,
  matchesFields,
  matchesLabels,
  parseFieldSelector,
  parseLabelSelector,
} from "../../api/index.ts";
import type { Store } from "../registry/generic/store.ts";
import type { ObjectPredicate } from "./list-options.ts";

/** The fields a field selector can name on `obj`. */
export function fieldsOf(definition: KindDefinition, obj: KubeObject): Record<string, string> {
  const fields: Record<string, string> = {
    "metadata.name": obj.metadata.name ?? "",
    "metadata.namespace": obj.metadata.namespace ?? "",
  };
  if (definition.selectableFields !== undefined)
    Object.assign(fields, definition.selectableFields(obj));
  return fields;
}

/** The fields a kind supports in field selectors. */
function supportedFields(definition: KindDefinition): string[] {
  if (definition.selectableFields === undefined) return [...defaultSelectableFields];
  const skeleton = { metadata: {}, spec: {}, status: {} } as KubeObject;
  return [...defaultSelectableFields, ...Object.keys(definition.selectableFields(skeleton))];
}

/** Builds the filter for `labelSelector` and `fieldSelector`, rejecting bad ones with 400. */
export function buildPredicate(store: Store, query: URLSearchParams): ObjectPredicate {
  const definition = store.entry.definition;
  const labelText = query.get("labelSelector") ?? "";
  const fieldText = query.get("fieldSelector") ?? "";
  const labels = labelText.trim() === "" ? undefined : parseLabelSelector(labelText);
  const fields = fieldText.trim() === "" ? undefined : parseFieldSelector(fieldText);
  if (fields !== undefined) {
    checkSelectableFields(
      fields,
      supportedFields(definition),
      definition.selectableFields === undefined ? "default" : "custom",
    );
  }
  if (labels === undefined && fields === undefined) return () => true;
  return (obj) =>
    (labels === undefined || matchesLabels(labels, obj.metadata.labels)) &&
    (fields === undefined || matchesFields(fields, fieldsOf(definition, obj)));
}
