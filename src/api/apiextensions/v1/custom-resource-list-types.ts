/**
 * The `x-kubernetes-list-type` set and map invariants on UPDATE. Upstream checks them apart from
 * the OpenAPI validator (`structurallisttype.ValidateListSetsAndMaps` on the whole object) and
 * ratchets them as a whole: the new object's duplicates are reported only when the old object
 * had none at all, for the main resource and the status subresource alike.
 */

import { isPlainObject } from "../../../util/index.ts";
import type { FieldError, FieldErrorList } from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import type { JSONSchemaProps } from "./crd.ts";
import { childPath, listTypeDuplicates } from "./custom-resource-validation.ts";
import { schemaAt } from "./schema-checks.ts";

/** Where the new object may differ from the old one, and the schema that part follows. */
export interface ListTypeScope {
  readonly value: unknown;
  readonly schema: JSONSchemaProps;
  /** Where `value` sits; `undefined` for a whole object (whose metadata is skipped). */
  readonly path: FieldPath | undefined;
}

/**
 * The list-type duplicates to report for an update: the new object's, if the old object has
 * none. `changed` is the part of the new object that may differ from the old one (the whole
 * object, or `status` on a status write, where everything else is the stored object's); `whole`
 * is the old object and its schema.
 *
 * Outside `changed` the new object's duplicates are the old object's, so reported only if there
 * are none: the new object's duplicates to report are exactly those inside `changed`, and the
 * old object needs searching only when there are some.
 */
export function ratchetListTypeDuplicates(
  changed: ListTypeScope,
  whole: { readonly old: unknown; readonly schema: JSONSchemaProps },
): FieldErrorList {
  const found: FieldErrorList = [];
  duplicatesIn(changed.value, changed.schema, changed.path, changed.path === undefined, found);
  if (found.length === 0) return found;
  const before: FieldErrorList = [];
  duplicatesIn(whole.old, whole.schema, undefined, true, before);
  return before.length === 0 ? found : [];
}

/** Appends the list-type duplicates anywhere in `value`, in document order. */
function duplicatesIn(
  value: unknown,
  s: JSONSchemaProps,
  path: FieldPath | undefined,
  isRoot: boolean,
  errs: FieldError[],
): void {
  if (Array.isArray(value)) {
    const at = path ?? fieldPath("");
    listTypeDuplicates(value, s, at, errs);
    const items = schemaAt(s.items);
    if (items === undefined) return;
    value.forEach((item, i) => {
      duplicatesIn(item, items, at.index(i), false, errs);
    });
    return;
  }
  if (!isPlainObject(value)) return;
  const properties = s.properties ?? {};
  const additional = schemaAt(s.additionalProperties);
  for (const [key, field] of Object.entries(value)) {
    if (isRoot && (key === "apiVersion" || key === "kind" || key === "metadata")) continue;
    const sub = schemaAt(properties[key]) ?? additional;
    if (sub !== undefined) duplicatesIn(field, sub, childPath(path, key), false, errs);
  }
}
