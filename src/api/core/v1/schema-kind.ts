import { metaDefinitionNames as m } from "../../meta/schema.ts";
import { obj, str } from "../../schema/builders.ts";
import { ref, type Schema } from "../../schema/schema.ts";

/**
 * The top-level schema of a core/v1 kind: apiVersion, kind, metadata and the given body fields,
 * tagged with `x-kubernetes-group-version-kind`.
 */
export function kindSchema(
  kind: string,
  description: string,
  fields: Record<string, Schema>,
  required?: string[],
): Schema {
  const schema = obj(
    {
      apiVersion: str(
        "APIVersion defines the versioned schema of this representation of an object.",
      ),
      kind: str("Kind is a string value representing the REST resource this object represents."),
      metadata: ref(m.objectMeta, "Standard object's metadata."),
      ...fields,
    },
    required === undefined ? { description } : { description, required },
  );
  schema["x-kubernetes-group-version-kind"] = [{ group: "", version: "v1", kind }];
  return schema;
}

/** The `<Kind>List` schema. */
export function listSchema(kind: string, itemsRef: Schema): Schema {
  const schema = obj(
    {
      apiVersion: str(
        "APIVersion defines the versioned schema of this representation of an object.",
      ),
      kind: str("Kind is a string value representing the REST resource this object represents."),
      metadata: ref(m.listMeta, "Standard list metadata."),
      items: { type: "array", items: itemsRef, description: `List of ${kind} objects.` },
    },
    { description: `${kind}List is a list of ${kind} objects.`, required: ["items"] },
  );
  schema["x-kubernetes-group-version-kind"] = [{ group: "", version: "v1", kind: `${kind}List` }];
  return schema;
}
